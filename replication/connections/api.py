"""SSH connections through the API: /api/replication/connections/ (never the private key)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from replication.connections import selectors, serializers, services
from replication.models import SshConnection


class SshConnectionViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[SshConnection],
):
    """SSH connections; writes go through the services (each error on its field)."""

    serializer_class = serializers.SshConnectionSerializer
    # PATCH only: a connection's name is all that can change.
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[SshConnection]:
        """Every connection."""
        return selectors.connection_queryset()

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Make a key pair and pin the host keys the other side offers now."""
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        connection = services.connection_create(**body.validated_data)
        return Response(self.get_serializer(connection).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Rename (host, port and user cannot change: that is another connection)."""
        connection = self.get_object()
        body = self.get_serializer(connection, data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        connection = services.connection_update(connection=connection, **body.validated_data)
        return Response(self.get_serializer(connection).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete the connection and this box's key for it."""
        services.connection_delete(connection=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: serializers.SshConnectionSerializer})
    @action(detail=True, methods=["post"])
    def check(self, request: Request, pk: str | None = None) -> Response:
        """Run `true` on the other side; a failure is a 400 in the engine's words."""
        connection = services.connection_check(connection=self.get_object())
        return Response(self.get_serializer(connection).data)

    @extend_schema(
        request=serializers.RepinSerializer,
        responses={200: serializers.SshConnectionSerializer},
    )
    @action(detail=True, methods=["post"])
    def repin(self, request: Request, pk: str | None = None) -> Response:
        """Pin the host keys the other side offers now, in place of the pinned ones."""
        body = serializers.RepinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        connection = services.connection_repin(
            connection=self.get_object(), expected=body.validated_data.get("fingerprints", ())
        )
        return Response(self.get_serializer(connection).data)

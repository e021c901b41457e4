"""SSH connections through the API: /api/replication/connections/ (never the private key),
pairing with another nasui (…/connections/pair/), and this box's side of a pairing
(/api/replication/pairing/)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.tokens import administrator_from
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

    @extend_schema(
        request=serializers.PairSerializer, responses={201: serializers.SshConnectionSerializer}
    )
    @action(detail=False, methods=["post"])
    def pair(self, request: Request) -> Response:
        """Pair with another nasui: its administrator's name and password authorize this box's
        new key there (used once, kept nowhere); its host keys pinned if its panel and its SSH
        server name the same ones."""
        data = validated(serializers.PairSerializer, request.data)
        connection = services.connection_pair(**data)
        return Response(self.get_serializer(connection).data, status=status.HTTP_201_CREATED)


class PairingView(APIView):
    """This box's side of a pairing: another nasui's key authorized for SSH here."""

    # The credentials in the body are the authentication (as for /api/tokens/): no session,
    # no token, no CSRF.
    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get_authenticate_header(self, request: Request) -> str:
        """Wrong credentials are a 401."""
        return 'Token realm="api"'

    @extend_schema(
        request=serializers.PairingRequestSerializer,
        responses={200: serializers.OfferSerializer},
        auth=[],
    )
    def post(self, request: Request) -> Response:
        """Check an administrator's credentials, add the key, say how to reach this box."""
        data = validated(serializers.PairingRequestSerializer, request.data)
        found = administrator_from(request, data["username"], data["password"], data["code"])
        if found is None:
            return Response(status=429)  # replaced by the lock-out answer (nasui.lockout)
        offer = services.pairing_accept(public_key=data["public_key"], comment=data["comment"])
        return Response(serializers.OfferSerializer(offer).data)

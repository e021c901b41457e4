"""ViewSets the apps build on: over a plain list, or over rows whose writes go through services."""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from rest_framework import mixins, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings


def kept(obj: Any, data: dict[str, Any], *fields: str) -> dict[str, Any]:
    """These fields from the body, or the object's current values where a PATCH left them out."""
    return {field: data.get(field, getattr(obj, field)) for field in fields}


class ConfigViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Any],
):
    """Model ViewSet whose writes go through a service function (validation, apply, undo)."""

    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def create_via_service(self, data: dict[str, Any]) -> Model:
        raise NotImplementedError

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        raise NotImplementedError

    def delete_via_service(self, obj: Any) -> None:
        raise NotImplementedError

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        obj = self.create_via_service(dict(body.validated_data))
        return Response(self.get_serializer(obj).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        obj = self.get_object()
        partial = kwargs.get("partial", False)
        body = self.get_serializer(obj, data=request.data, partial=partial)
        body.is_valid(raise_exception=True)
        # Fields left out of a PATCH keep their current values (each service call fills them).
        obj = self.update_via_service(obj, dict(body.validated_data))
        return Response(self.get_serializer(obj).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        self.delete_via_service(self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


class ListViewSet(viewsets.ViewSet):
    """A ViewSet over a plain list, paginated like the model-backed ones."""

    def paginated(self, request: Request, items: list[Any], serializer: type) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        response: Response = paginator.get_paginated_response(serializer(page, many=True).data)
        return response

    @property
    def pagination_class(self) -> Any:
        return api_settings.DEFAULT_PAGINATION_CLASS

"""NFS through the API: exports, the server's settings."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.viewsets import ConfigViewSet, kept
from sharing.models import NfsSettings
from sharing.nfs import selectors, services
from sharing.nfs import serializers as s
from storage.datasets import selectors as dataset_selectors

_EXPORT_FIELDS = ("comment", "networks", "hosts", "read_only", "map_mode", "enabled")


class NfsShareViewSet(ConfigViewSet):
    """NFS exports of datasets."""

    serializer_class = s.NfsShareSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.nfs_share_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.nfs_share_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return services.nfs_share_update(
            share=obj,
            path=data.get("path") or dataset_selectors.dataset_path(obj.dataset),
            map_user=data.get("map_user", obj.map_user),
            map_group=data.get("map_group", obj.map_group),
            **kept(obj, data, *_EXPORT_FIELDS),
        )

    def delete_via_service(self, obj: Any) -> None:
        services.nfs_share_delete(share=obj)


class NfsSettingsView(APIView):
    """The NFS server's settings."""

    @extend_schema(responses=s.NfsSettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.NfsSettingsSerializer(NfsSettings.load()).data)

    @extend_schema(request=s.NfsSettingsSerializer, responses=s.NfsSettingsSerializer)
    def put(self, request: Request) -> Response:
        row = services.nfs_settings_update(**validated(s.NfsSettingsSerializer, request.data))
        return Response(s.NfsSettingsSerializer(row).data)

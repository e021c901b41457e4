"""SMB through the API: shares, the server's settings."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.viewsets import ConfigViewSet, kept
from sharing.models import SmbSettings
from sharing.smb import selectors, services
from sharing.smb import serializers as s
from storage.datasets import selectors as dataset_selectors

_SHARE_FIELDS = (
    "name",
    "comment",
    "read_only",
    "browseable",
    "guest_ok",
    "shadow_copy",
    "fruit",
    "time_machine",
    "time_machine_limit",
    "audit",
    "enabled",
)


class SmbShareViewSet(ConfigViewSet):
    """SMB shares of datasets."""

    serializer_class = s.SmbShareSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.smb_share_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.smb_share_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return services.smb_share_update(
            share=obj,
            path=data.get("path") or dataset_selectors.dataset_path(obj.dataset),
            users=data.get("users", obj.users.all()),
            groups=data.get("groups", obj.groups.all()),
            **kept(obj, data, *_SHARE_FIELDS),
        )

    def delete_via_service(self, obj: Any) -> None:
        services.smb_share_delete(share=obj)


class SmbSettingsView(APIView):
    """The SMB server's settings."""

    @extend_schema(responses=s.SmbSettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.SmbSettingsSerializer(SmbSettings.load()).data)

    @extend_schema(request=s.SmbSettingsSerializer, responses=s.SmbSettingsSerializer)
    def put(self, request: Request) -> Response:
        row = services.smb_settings_update(**validated(s.SmbSettingsSerializer, request.data))
        return Response(s.SmbSettingsSerializer(row).data)

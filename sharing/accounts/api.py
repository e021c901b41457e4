"""File-sharing API: local users and groups, SMB settings and shares; writes through services."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from sharing.accounts import selectors as account_selectors
from sharing.accounts import serializers as s
from sharing.accounts import services as accounts
from sharing.files import services as perms
from sharing.files import wizard_tmp as files_wizard
from sharing.iscsi.api import ConfigViewSet, kept
from sharing.models import NfsSettings, SmbSettings
from sharing.nfs import selectors as nf_selectors
from sharing.nfs import services as nfs
from sharing.smb import selectors as smb_selectors
from sharing.smb import services as smb
from storage.datasets import selectors as dataset_selectors
from storage.ownership import selectors as ownership_selectors


class LocalGroupViewSet(ConfigViewSet):
    """Local groups of file-sharing users."""

    serializer_class = s.LocalGroupSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return account_selectors.local_group_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return accounts.group_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return accounts.group_update(group=obj, **kept(obj, data, "name", "comment"))

    def delete_via_service(self, obj: Any) -> None:
        accounts.group_delete(group=obj)


_USER_FIELDS = ("full_name", "email", "disabled", "home_dataset")


class LocalUserViewSet(ConfigViewSet):
    """Local users of the file shares; passwords are write-only."""

    serializer_class = s.LocalUserSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return account_selectors.local_user_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        # A password left out is "" here, so the service names the field and its rule.
        return accounts.user_create(
            username=data["username"],
            password=data.get("password", ""),
            uid=data.get("uid"),
            group=data.get("group"),
            groups=data.get("groups", ()),
            **{field: data[field] for field in _USER_FIELDS if field in data},
        )

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return accounts.user_update(
            user=obj,
            group=data.get("group") or obj.group,
            groups=data.get("groups", obj.groups.all()),
            password=data.get("password", ""),
            **kept(obj, data, *_USER_FIELDS),
        )

    def delete_via_service(self, obj: Any) -> None:
        accounts.user_delete(user=obj)


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
        return smb_selectors.smb_share_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return smb.smb_share_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return smb.smb_share_update(
            share=obj,
            path=data.get("path") or dataset_selectors.dataset_path(obj.dataset),
            users=data.get("users", obj.users.all()),
            groups=data.get("groups", obj.groups.all()),
            **kept(obj, data, *_SHARE_FIELDS),
        )

    def delete_via_service(self, obj: Any) -> None:
        smb.smb_share_delete(share=obj)


_EXPORT_FIELDS = ("comment", "networks", "hosts", "read_only", "map_mode", "enabled")


class NfsShareViewSet(ConfigViewSet):
    """NFS exports of datasets."""

    serializer_class = s.NfsShareSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return nf_selectors.nfs_share_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return nfs.nfs_share_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return nfs.nfs_share_update(
            share=obj,
            path=data.get("path") or dataset_selectors.dataset_path(obj.dataset),
            map_user=data.get("map_user", obj.map_user),
            map_group=data.get("map_group", obj.map_group),
            **kept(obj, data, *_EXPORT_FIELDS),
        )

    def delete_via_service(self, obj: Any) -> None:
        nfs.nfs_share_delete(share=obj)


class NfsSettingsView(APIView):
    """The NFS server's settings."""

    @extend_schema(responses=s.NfsSettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.NfsSettingsSerializer(NfsSettings.load()).data)

    @extend_schema(request=s.NfsSettingsSerializer, responses=s.NfsSettingsSerializer)
    def put(self, request: Request) -> Response:
        row = nfs.nfs_settings_update(**validated(s.NfsSettingsSerializer, request.data))
        return Response(s.NfsSettingsSerializer(row).data)


class ShareWizardView(APIView):
    """Share a dataset over SMB, NFS or both in one call: dataset, user, shares, or nothing."""

    @extend_schema(request=s.ShareWizardSerializer, responses={201: s.ShareWizardResultSerializer})
    def post(self, request: Request) -> Response:
        made = files_wizard.share_dataset(**validated(s.ShareWizardSerializer, request.data))
        result = {
            "dataset": made.dataset,
            "path": made.path,
            "smb_share": made.share,
            "nfs_share": made.export,
            "new_user": made.new_user,
            "summary": files_wizard.summary(made),
        }
        return Response(s.ShareWizardResultSerializer(result).data, status=status.HTTP_201_CREATED)


class SmbShareWizardView(APIView):
    """The SMB-only wizard that scripts already call: it answers with the SMB share, as before."""

    @extend_schema(request=s.ShareWizardSerializer, responses={201: s.SmbShareSerializer})
    def post(self, request: Request) -> Response:
        data = validated(s.ShareWizardSerializer, request.data)
        if data["protocols"] != ["smb"]:
            # Its answer is the SMB share alone: an export made here would go unreported.
            raise serializers.ValidationError(
                {"protocols": ["This address makes SMB shares only: use /api/sharing/wizard/."]}
            )
        made = files_wizard.share_dataset(**data)
        return Response(s.SmbShareSerializer(made.share).data, status=status.HTTP_201_CREATED)


class PermissionsView(APIView):
    """Owner, group and mode of a dataset's folder."""

    @extend_schema(request=s.PermissionsSerializer, responses=s.PermissionsResultSerializer)
    def put(self, request: Request) -> Response:
        data = validated(s.PermissionsSerializer, request.data)
        job = perms.dataset_owner_set(**data, user=request.user)
        current = ownership_selectors.dataset_permissions(data["dataset"]) or (0, 0, 0)
        uid, gid, mode = current
        result = {"dataset": data["dataset"], "uid": uid, "gid": gid, "mode": f"{mode:o}"}
        return Response(
            s.PermissionsResultSerializer({**result, "job": job.pk if job else None}).data
        )


class SmbSettingsView(APIView):
    """The SMB server's settings."""

    @extend_schema(responses=s.SmbSettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.SmbSettingsSerializer(SmbSettings.load()).data)

    @extend_schema(request=s.SmbSettingsSerializer, responses=s.SmbSettingsSerializer)
    def put(self, request: Request) -> Response:
        row = smb.smb_settings_update(**validated(s.SmbSettingsSerializer, request.data))
        return Response(s.SmbSettingsSerializer(row).data)

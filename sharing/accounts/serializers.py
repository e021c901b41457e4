"""Serializers of the file-sharing API: users and groups, SMB and NFS shares, the wizard."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sharing.models import LocalGroup, LocalUser, NfsSettings, NfsShare, SmbSettings, SmbShare
from storage.datasets.selectors import dataset_path


class LocalGroupSerializer(serializers.ModelSerializer[LocalGroup]):
    """A local group; the gid is chosen when left out and fixed afterwards."""

    class Meta:
        model = LocalGroup
        fields = ["id", "name", "gid", "comment"]
        extra_kwargs: dict[str, Any] = {
            "name": {"validators": []},
            "gid": {"validators": [], "required": False},
        }


class LocalUserSerializer(serializers.ModelSerializer[LocalUser]):
    """A local user; the password is write-only and kept when an update leaves it out."""

    password = serializers.CharField(
        write_only=True, required=False, allow_blank=True, trim_whitespace=False
    )
    has_password = serializers.BooleanField(read_only=True)
    group = serializers.PrimaryKeyRelatedField(
        queryset=LocalGroup.objects.all(),
        required=False,
        allow_null=True,
        help_text="Primary group; left out on create, a group named after the user is made.",
    )

    class Meta:
        model = LocalUser
        fields = [
            "id",
            "username",
            "uid",
            "full_name",
            "email",
            "password",
            "has_password",
            "group",
            "groups",
            "disabled",
            "home_dataset",
            "password_set_at",
        ]
        read_only_fields = ["password_set_at"]
        extra_kwargs: dict[str, Any] = {
            "username": {"validators": []},
            "uid": {"validators": [], "required": False},
        }


class SmbSettingsSerializer(serializers.ModelSerializer[SmbSettings]):
    """The SMB server's names and the addresses it listens on (empty: all)."""

    bind = serializers.ListField(  # type: ignore[assignment]
        child=serializers.CharField(), required=False, help_text="Addresses; empty: all."
    )

    class Meta:
        model = SmbSettings
        fields = ["netbios_name", "workgroup", "description", "bind"]
        extra_kwargs: dict[str, Any] = {
            "netbios_name": {"required": True},
            "workgroup": {"required": True},
        }


class MountpointField(serializers.CharField):
    """Written as a path; read back as the shared dataset's mountpoint now ("" if unmounted)."""

    def get_attribute(self, instance: SmbShare) -> str:
        return dataset_path(instance.dataset)


class SmbShareSerializer(serializers.ModelSerializer[SmbShare]):
    """An SMB share of a dataset's mountpoint and who may use it (no users, no groups: all)."""

    path = MountpointField(help_text="The mountpoint of a dataset, e.g. /tank/media.")
    dataset = serializers.CharField(read_only=True)

    class Meta:
        model = SmbShare
        fields = [
            "id",
            "name",
            "path",
            "dataset",
            "comment",
            "read_only",
            "browseable",
            "guest_ok",
            "users",
            "groups",
            "shadow_copy",
            "fruit",
            "time_machine",
            "time_machine_limit",
            "audit",
            "enabled",
        ]
        extra_kwargs: dict[str, Any] = {"name": {"validators": []}}


class ShareWizardSerializer(serializers.Serializer[Any]):
    """Share a new or existing dataset over SMB, NFS or both, with chosen or new users, at once."""

    existing = serializers.CharField(
        required=False, default="", help_text="An existing file system; empty: make one."
    )
    # DRF takes declared fields off the class, so these names do not shadow Field's attributes.
    parent = serializers.CharField(  # type: ignore[assignment]
        required=False, default="", help_text="Where a new one goes."
    )
    name = serializers.CharField(required=False, default="", help_text="The new dataset's name.")
    compression = serializers.CharField(required=False, default="inherit")
    protocols = serializers.ListField(
        child=serializers.ChoiceField(choices=["smb", "nfs"]),
        required=False,
        default=lambda: ["smb"],
        allow_empty=False,
        help_text="smb, nfs or both; left out: smb.",
    )
    share_name = serializers.CharField(
        required=False, default="", allow_blank=True, help_text="SMB; empty: the dataset's name."
    )
    users = serializers.PrimaryKeyRelatedField(
        queryset=LocalUser.objects.all(),
        many=True,
        required=False,
        default=list,
        help_text="Users who may use the SMB share.",
    )
    new_username = serializers.CharField(
        required=False, default="", allow_blank=True, help_text="A user to make (SMB, NFS map)."
    )
    new_password = serializers.CharField(
        required=False, default="", allow_blank=True, write_only=True, trim_whitespace=False
    )
    guest_ok = serializers.BooleanField(required=False, default=False)
    read_only = serializers.BooleanField(  # type: ignore[assignment]
        required=False, default=False, help_text="Over SMB and NFS."
    )
    networks = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        default=list,
        help_text="NFS: networks that may mount it, in CIDR form, e.g. 192.168.1.0/24.",
    )
    hosts = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        default=list,
        help_text="NFS: host names or addresses that may mount it.",
    )
    map_mode = serializers.ChoiceField(
        choices=NfsShare.MapMode.choices, required=False, default=NfsShare.MapMode.NONE
    )
    map_user = serializers.PrimaryKeyRelatedField(
        queryset=LocalUser.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="NFS: the user root (or everyone) becomes; null: the new user.",
    )
    map_group = serializers.PrimaryKeyRelatedField(
        queryset=LocalGroup.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="NFS: null: the user's own group.",
    )


class PermissionsSerializer(serializers.Serializer[Any]):
    """Owner, group and mode of a dataset's folder; `recursive` starts a job for the rest."""

    dataset = serializers.CharField(help_text="A file system, e.g. tank/media.")
    owner = serializers.PrimaryKeyRelatedField(
        queryset=LocalUser.objects.all(), allow_null=True, help_text="A local user; null: root."
    )
    group = serializers.PrimaryKeyRelatedField(
        queryset=LocalGroup.objects.all(), allow_null=True, help_text="A local group; null: root."
    )
    mode = serializers.CharField(help_text="Octal, e.g. 770 or 2775.")
    recursive = serializers.BooleanField(required=False, default=False)


class PermissionsResultSerializer(serializers.Serializer[Any]):
    """The folder's owner and mode now, and the job doing the rest (if recursive)."""

    dataset = serializers.CharField()
    uid = serializers.IntegerField()
    gid = serializers.IntegerField()
    mode = serializers.CharField()
    job = serializers.IntegerField(allow_null=True)


class NfsShareSerializer(serializers.ModelSerializer[NfsShare]):
    """An NFS export of a dataset's mountpoint to some networks and hosts."""

    path = MountpointField(help_text="The mountpoint of a dataset, e.g. /tank/media.")
    dataset = serializers.CharField(read_only=True)
    networks = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="CIDR, e.g. 192.168.1.0/24."
    )
    hosts = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Host names or addresses."
    )

    class Meta:
        model = NfsShare
        fields = [
            "id",
            "path",
            "dataset",
            "comment",
            "networks",
            "hosts",
            "read_only",
            "map_mode",
            "map_user",
            "map_group",
            "enabled",
        ]


class NfsSettingsSerializer(serializers.ModelSerializer[NfsSettings]):
    """NFSv4 is always on (port 2049); v3 next to it if asked."""

    class Meta:
        model = NfsSettings
        fields = ["v3"]
        extra_kwargs: dict[str, Any] = {"v3": {"required": True}}


class ShareWizardResultSerializer(serializers.Serializer[Any]):
    """What the wizard made: the dataset, its SMB share and NFS export (null if not asked)."""

    dataset = serializers.CharField()
    path = serializers.CharField(help_text="The dataset's mountpoint.")
    smb_share = SmbShareSerializer(allow_null=True)
    nfs_share = NfsShareSerializer(allow_null=True)
    new_user = LocalUserSerializer(allow_null=True)
    summary = serializers.CharField(help_text="What was made, in words.")

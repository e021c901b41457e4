"""Serializers of the file-sharing API above the protocols: the wizard, a folder's owner."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sharing.accounts.serializers import LocalUserSerializer
from sharing.models import LocalGroup, LocalUser, NfsShare
from sharing.nfs.engine.desired import MAP_MODE_HELP
from sharing.nfs.serializers import NfsShareSerializer
from sharing.smb.serializers import SmbShareSerializer


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
        choices=NfsShare.MapMode.choices,
        required=False,
        default=NfsShare.MapMode.NONE,
        help_text=f"NFS: none, root or all. {MAP_MODE_HELP}",
    )
    map_user = serializers.PrimaryKeyRelatedField(
        queryset=LocalUser.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="NFS: the user (anonuid) root, or everyone, becomes; null: the new user.",
    )
    map_group = serializers.PrimaryKeyRelatedField(
        queryset=LocalGroup.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="NFS: the anonymous group (anongid); null: the user's own group.",
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


class ShareWizardResultSerializer(serializers.Serializer[Any]):
    """What the wizard made: the dataset, its SMB share and NFS export (null if not asked)."""

    dataset = serializers.CharField()
    path = serializers.CharField(help_text="The dataset's mountpoint.")
    smb_share = SmbShareSerializer(allow_null=True)
    nfs_share = NfsShareSerializer(allow_null=True)
    new_user = LocalUserSerializer(allow_null=True)
    summary = serializers.CharField(help_text="What was made, in words.")

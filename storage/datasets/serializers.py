"""Serializers of the storage API: ZFS dataclasses out, request bodies in."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from nasui.api.serializers import EpochDateTimeField, JobSerializer
from storage import validation as v
from storage.datasets.selectors import dataset_path
from storage.encryption.serializers import passphrase_field
from storage.encryption.services import ENCRYPTION_CHOICES
from storage.ownership import selectors as ownership_selectors
from storage.zfs.base import Dataset


def _bytes(help_text: str, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(help_text=help_text, **kwargs)


class DatasetSerializer(serializers.Serializer[Any]):
    """A file system or zvol with its space figures (bytes) and settings."""

    name = serializers.CharField()
    pool = serializers.CharField()
    type = serializers.CharField()
    used = _bytes(
        "usedbydataset + usedbychildren + usedbysnapshots + usedbyrefreservation. "
        "Lags writes until the pool syncs (about 5 s; see ?settle)."
    )
    available = serializers.IntegerField()
    referenced = _bytes("Bytes of the dataset's own data, as stored (after compression).")
    logicalused = _bytes("Data of the dataset and its children before compression.")
    logicalreferenced = _bytes("The dataset's own data before compression.")
    usedbydataset = _bytes("Used by the dataset's own data.")
    usedbychildren = _bytes("Used by children, with their unused reservations.")
    usedbysnapshots = _bytes("Freed if every snapshot of the dataset were destroyed.")
    usedbyrefreservation = _bytes("The part of refreservation not yet filled with data.")
    figures_read_at = EpochDateTimeField(
        help_text="When the space figures were read. They count writes whose transaction "
        "group had synced by then; ?settle=true syncs the pool first."
    )
    compressratio = serializers.FloatField()
    compression = serializers.CharField()
    dedup = serializers.CharField()
    recordsize = serializers.IntegerField(allow_null=True)
    volblocksize = serializers.IntegerField(allow_null=True)
    volsize = serializers.IntegerField(allow_null=True)
    sparse = serializers.BooleanField(allow_null=True)
    quota = serializers.IntegerField(allow_null=True)
    reservation = serializers.IntegerField(allow_null=True)
    refreservation = _bytes(
        "Space kept for the dataset's own data (a thick zvol's); null when none.", allow_null=True
    )
    atime = serializers.BooleanField(allow_null=True)
    sync = serializers.CharField(help_text="standard, always or disabled (set or inherited).")
    comment = serializers.CharField()
    encryption = serializers.CharField(help_text="off, or the cipher (aes-256-gcm).")
    encryption_root = serializers.CharField(
        help_text="The dataset whose key opens this one (itself for a root); empty if off."
    )
    locked = serializers.BooleanField(
        help_text="Encrypted and its key not loaded: not mounted, not shared, not served."
    )


class FolderSerializer(serializers.Serializer[Any]):
    """Owner, group and mode of a file system's mountpoint, read with stat."""

    owner = serializers.CharField(help_text="User name, or the bare uid when no account has it.")
    group = serializers.CharField(help_text="Group name, or the bare gid when no account has it.")
    uid = serializers.IntegerField()
    gid = serializers.IntegerField()
    mode = serializers.CharField(help_text="Four octal digits, e.g. 0770.")


class DatasetDetailSerializer(DatasetSerializer):
    """A file system with its ACL type and its folder's owner, group and mode."""

    acltype = serializers.SerializerMethodField(
        help_text="posix or off, as ZFS reports it (set here or inherited)."
    )
    permissions = serializers.SerializerMethodField(
        help_text="The mountpoint's owner and mode; null when it is not mounted."
    )

    def get_acltype(self, dataset: Dataset) -> str | None:
        """acltype, read from ZFS."""
        return ownership_selectors.acltype_of(dataset.name)

    @extend_schema_field(FolderSerializer(allow_null=True))
    def get_permissions(self, dataset: Dataset) -> dict[str, Any] | None:
        """Owner, group and mode of the mountpoint."""
        found = ownership_selectors.mountpoint_ownership(dataset.mountpoint)
        return ownership_selectors.describe(found) if found else None


class DatasetSavedSerializer(DatasetDetailSerializer):
    """A changed file system, and the job applying owner and mode inside it (when asked)."""

    job = serializers.SerializerMethodField(
        help_text="Started by permissions_recursive; null otherwise."
    )

    @extend_schema_field(JobSerializer(allow_null=True))
    def get_job(self, dataset: Dataset) -> dict[str, Any] | None:
        """The job passed in the serializer's context, if any."""
        job = self.context.get("job")
        return dict(JobSerializer(job).data) if job else None


class FiguresQuerySerializer(serializers.Serializer[Any]):
    """How settled the space figures must be."""

    settle = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Wait for the pool's pending writes to be synced before reading, so used "
        "and referenced include everything written so far (slower).",
    )


def _choice(values: list[str], **kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=values, **kwargs)


class DatasetWriteSerializer(serializers.Serializer[Any]):
    """Properties of a file system ("inherit" drops a local value), owner and mode."""

    compression = _choice(v.COMPRESSION_FORM_CHOICES, required=False)
    dedup = _choice(v.DEDUP_FORM_CHOICES, required=False)
    recordsize = serializers.IntegerField(required=False, allow_null=True)
    atime = _choice(["inherit", "on", "off"], required=False)
    acltype = _choice(
        ["inherit", "posix", "off"],
        required=False,
        help_text="posix: POSIX ACLs (setfacl), and xattr=sa with them; off: owner and mode only.",
    )
    sync = _choice(v.SYNC_FORM_CHOICES, required=False, help_text=v.SYNC_HELP)
    quota = serializers.CharField(required=False, allow_blank=True, help_text="e.g. 500G")
    reservation = serializers.CharField(required=False, allow_blank=True)
    comment = serializers.CharField(required=False, allow_blank=True)
    owner = serializers.CharField(
        required=False, help_text="root or a local user's name: owner of the mountpoint."
    )
    group = serializers.CharField(required=False, help_text="root or a local group's name.")
    mode = serializers.CharField(
        required=False, help_text="Mode of the mountpoint, 3 or 4 octal digits, e.g. 0770."
    )
    permissions_recursive = serializers.BooleanField(
        required=False,
        help_text="Also give everything inside the mountpoint this owner and mode (a job).",
    )


class EncryptionChoiceSerializer(serializers.Serializer[Any]):
    """How a new dataset or zvol is encrypted; fixed once it exists (only the key changes)."""

    encryption = serializers.ChoiceField(
        choices=list(ENCRYPTION_CHOICES),
        required=False,
        default="inherit",
        help_text="inherit: as the parent (encrypted under an encrypted parent); off; "
        "passphrase: a new encryption root opened by a typed passphrase (waits for it at boot); "
        "key: a new encryption root with a generated key kept on the appliance (unlocks at boot).",
    )
    passphrase = passphrase_field(required=False, allow_blank=True, default="")
    passphrase_confirm = passphrase_field(required=False, allow_blank=True, default="")


class DatasetCreateSerializer(DatasetWriteSerializer, EncryptionChoiceSerializer):
    """A new file system: its full name (pool/…/name), properties, owner, mode, encryption."""

    name = serializers.CharField(help_text="Full name, e.g. tank/media.")
    permissions_recursive = None  # type: ignore[assignment]  # a new file system is empty


class ZvolWriteSerializer(serializers.Serializer[Any]):
    """Changes to a zvol: grow, compression, dedup, comment."""

    size = serializers.CharField(required=False, help_text="e.g. 20G; never smaller.")
    compression = _choice(v.COMPRESSION_FORM_CHOICES, required=False)
    dedup = _choice(v.DEDUP_FORM_CHOICES, required=False)
    sync = _choice(v.SYNC_FORM_CHOICES, required=False, help_text=v.SYNC_HELP)
    comment = serializers.CharField(required=False, allow_blank=True)


class ZvolCreateSerializer(ZvolWriteSerializer, EncryptionChoiceSerializer):
    """A new zvol."""

    name = serializers.CharField(help_text="Full name, e.g. tank/vm-disk.")
    size = serializers.CharField(help_text="e.g. 20G; a multiple of the block size.")
    volblocksize = serializers.IntegerField(required=False, default=v.DEFAULT_VOLBLOCKSIZE)
    sparse = serializers.BooleanField(required=False, default=False)
    force = serializers.BooleanField(
        required=False, default=False, help_text="Allow a thick zvol over 80% of free space."
    )


class MountpointField(serializers.CharField):
    """Written as a path; read back as the shared dataset's mountpoint now ("" if unmounted)."""

    def get_attribute(self, instance: Any) -> str:
        return dataset_path(instance.dataset)

"""Serializers of the disks API: whole disks out; a pool's disk, vdev and aux bodies in."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from storage.zfs.base import DATA_VDEV_TYPES
from storage.zfs.devices import AUX_KINDS


@extend_schema_serializer(component_name="Disk")
class DiskRowSerializer(serializers.Serializer[Any]):
    """A whole disk and the pool using it."""

    name = serializers.CharField()
    path = serializers.CharField()
    size = serializers.IntegerField()
    model = serializers.CharField()
    serial = serializers.CharField()
    pool = serializers.CharField(allow_null=True)
    other_use = serializers.CharField()
    free = serializers.BooleanField()


Body = serializers.Serializer[dict[str, Any]]


class DiskSerializer(Body):
    """One disk of the pool."""

    disk = serializers.CharField(max_length=200)


class OfflineSerializer(DiskSerializer):
    """The disk, and whether the offline should last only until the next reboot."""

    temporary = serializers.BooleanField(default=False)


class NewDiskSerializer(DiskSerializer):
    """A disk of the pool and the free disk that replaces or mirrors it."""

    new_disk = serializers.CharField(max_length=200)


class VdevSerializer(Body):
    """One data vdev: the pool's own layout and as many disks as its other vdevs have."""

    layout = serializers.ChoiceField(choices=DATA_VDEV_TYPES)
    disks = serializers.ListField(child=serializers.CharField(max_length=200), min_length=1)


class AuxSerializer(Body):
    """Hot spares, a log (mirrored when asked) or cache disks."""

    kind = serializers.ChoiceField(choices=AUX_KINDS)
    disks = serializers.ListField(child=serializers.CharField(max_length=200), min_length=1)
    mirror = serializers.BooleanField(default=False)

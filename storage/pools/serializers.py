"""Serializers of the pools API: pools, vdevs, scan and dedup table out; create and import in."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from storage import validation as v
from storage.zfs.base import Vdev


class PoolSerializer(serializers.Serializer[Any]):
    """A pool's space, health and dedup ratio (bytes)."""

    name = serializers.CharField()
    guid = serializers.CharField()
    health = serializers.CharField()
    size = serializers.IntegerField()
    allocated = serializers.IntegerField()
    free = serializers.IntegerField()
    capacity = serializers.IntegerField(help_text="Percent used.")
    fragmentation = serializers.IntegerField(allow_null=True)
    dedupratio = serializers.FloatField()
    ashift = serializers.IntegerField(
        allow_null=True,
        help_text="Sectors are 2^ashift bytes (12: 4 KiB). Null when the pool property is 0: "
        "each vdev then chose its own from its disks.",
    )


_VDEV_PROPERTIES = {
    "name": {"type": "string"},
    "type": {"type": "string"},
    "state": {"type": "string"},
    "read_errors": {"type": "integer"},
    "write_errors": {"type": "integer"},
    "cksum_errors": {"type": "integer"},
    "note": {"type": "string"},
}


# A vdev's children are vdevs again (mirror -> disks); two levels are described, deeper ones
# are objects of the same shape.
_VDEV = {
    "type": "object",
    "properties": {
        **_VDEV_PROPERTIES,
        "children": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    **_VDEV_PROPERTIES,
                    "children": {"type": "array", "items": {"type": "object"}},
                },
            },
        },
    },
    "required": [*_VDEV_PROPERTIES, "children"],
}


@extend_schema_field({"type": "array", "items": _VDEV})
class VdevField(serializers.Field[Vdev, Any, Any, Any]):
    """A vdev subtree as nested objects."""

    def to_representation(self, value: Any) -> Any:
        return [asdict(v) for v in value]


class ScanSerializer(serializers.Serializer[Any]):
    """The last or current scrub/resilver."""

    state = serializers.CharField()
    function = serializers.CharField()
    percent_done = serializers.FloatField(allow_null=True)
    error_count = serializers.IntegerField(source="errors")


class DedupTableSerializer(serializers.Serializer[Any]):
    """DDT totals: entries, bytes on disk, bytes in RAM."""

    entries = serializers.IntegerField()
    size_on_disk = serializers.IntegerField()
    size_in_core = serializers.IntegerField()


class PoolSpaceSerializer(serializers.Serializer[Any]):
    """Space as datasets see it: after parity, unused reservations apart from written data."""

    usable = serializers.IntegerField(help_text="Bytes datasets hold plus what they can add.")
    used = serializers.IntegerField(help_text="Bytes used, unused reservations included.")
    reserved = serializers.IntegerField(
        help_text="Bytes reserved (zvols, reservations), unwritten."
    )
    written = serializers.IntegerField(
        source="data", help_text="Bytes written, snapshots included."
    )
    available = serializers.IntegerField(help_text="Bytes datasets can still use.")
    percent_used = serializers.IntegerField(help_text="used / usable, in percent.")


class PoolDetailSerializer(PoolSerializer):
    """A pool with its vdev tree, scan state, errors, dedup table and root dataset ratios."""

    vdevs = VdevField(source="status.vdevs")
    logs = VdevField(source="status.logs")
    cache = VdevField(source="status.cache")
    spares = VdevField(source="status.spares")
    scan = ScanSerializer(source="status.scan")
    status = serializers.CharField(source="status.status")
    data_errors = serializers.CharField(source="status.errors")
    ddt = DedupTableSerializer(allow_null=True)
    compressratio = serializers.FloatField(source="root.compressratio", allow_null=True)
    logicalused = serializers.IntegerField(source="root.logicalused", allow_null=True)
    space = PoolSpaceSerializer(allow_null=True)


class PoolCreateSerializer(serializers.Serializer[Any]):
    """A new pool: name, layout and disks."""

    name = serializers.CharField()
    layout = serializers.ChoiceField(choices=v.LAYOUT_CHOICES)
    disks = serializers.ListField(child=serializers.CharField(), allow_empty=False)
    width = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    cache = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    log = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    spares = serializers.ListField(child=serializers.CharField(), required=False, default=list)


class ImportSerializer(serializers.Serializer[Any]):
    """Which found pool to import, and an optional new name."""

    pool = serializers.CharField(help_text="Name or numeric id of the pool.")
    new_name = serializers.CharField(required=False, allow_blank=True, default="")


class ImportableSerializer(serializers.Serializer[Any]):
    """A pool that can be imported."""

    name = serializers.CharField()
    guid = serializers.CharField()
    state = serializers.CharField()
    status = serializers.CharField()

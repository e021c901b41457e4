"""`zfs get -p` of one sandbox dataset: every property with its value and source."""

from __future__ import annotations

from collections.abc import Sequence

from storage.zfs.base import PropertyValue
from storage.zfs.errors import InvalidProperty
from storage.zfs.sandbox import props
from storage.zfs.sandbox.figures import SpaceCalculator
from storage.zfs.sandbox.tree import PoolTree

# The order `zfs get all` lists them in (the subset the sandbox knows).
ORDER = (
    "type",
    "creation",
    "used",
    "available",
    "referenced",
    "compressratio",
    "mounted",
    "quota",
    "reservation",
    "recordsize",
    "mountpoint",
    "compression",
    "atime",
    "readonly",
    "xattr",
    "volsize",
    "volblocksize",
    "refquota",
    "refreservation",
    "usedbysnapshots",
    "usedbydataset",
    "usedbychildren",
    "usedbyrefreservation",
    "dedup",
    "sync",
    "refcompressratio",
    "logicalused",
    "logicalreferenced",
    "acltype",
)
_STAT = "-"


def _statistics(tree: PoolTree, calc: SpaceCalculator, rel: str) -> dict[str, str]:
    """The computed, read-only properties."""
    space = calc.space(rel)
    values = {
        "type": tree.kind(rel),
        "creation": str(int(tree.datasets[rel].get("created", 0))),
        "used": str(space.used),
        "available": str(space.available),
        "referenced": str(space.referenced),
        "compressratio": f"{space.compressratio:.2f}",
        "refcompressratio": f"{space.refcompressratio:.2f}",
        "usedbysnapshots": str(space.usedbysnapshots),
        "usedbydataset": str(space.usedbydataset),
        "usedbychildren": str(space.usedbychildren),
        "usedbyrefreservation": str(space.usedbyrefreservation),
        "logicalused": str(space.logicalused),
        "logicalreferenced": str(space.logicalreferenced),
    }
    if tree.kind(rel) == props.FILESYSTEM:
        values["mounted"] = "yes"
    return values


def _one(tree: PoolTree, rel: str, prop: str, stats: dict[str, str]) -> PropertyValue | None:
    if prop in stats:
        return PropertyValue(stats[prop], _STAT)
    if prop == "mountpoint":
        if tree.kind(rel) != props.FILESYSTEM:
            return None
        return PropertyValue(str(tree.data_path(rel)), "default")
    if prop == "volsize":
        found = tree.resolve(rel, prop) if tree.kind(rel) == props.VOLUME else None
        return PropertyValue(found[0], "local") if found else None
    found = tree.resolve(rel, prop)
    return PropertyValue(*found) if found else None


def property_table(
    tree: PoolTree, calc: SpaceCalculator, rel: str, wanted: Sequence[str] = ()
) -> dict[str, PropertyValue]:
    """Named properties (all when none), InvalidProperty for a name ZFS does not know."""
    stats = _statistics(tree, calc, rel)
    if not wanted:
        user = sorted(p for p in tree.datasets[rel]["props"] if props.is_user_property(p))
        inherited = sorted(
            p for _, local in tree.chain(rel)[1:] for p in local if props.is_user_property(p)
        )
        wanted = (*ORDER, *dict.fromkeys(user + inherited))
    table: dict[str, PropertyValue] = {}
    for prop in wanted:
        known = prop in ORDER or props.is_user_property(prop)
        if not known:
            raise InvalidProperty(f"bad property list: invalid property {prop!r}")
        value = _one(tree, rel, prop, stats)
        if value is not None:
            table[prop] = value
        elif props.is_user_property(prop):
            table[prop] = PropertyValue("-", "-")  # zfs get shows unset user properties so
    return table

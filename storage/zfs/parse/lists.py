"""Parsers for tab-separated `-H -p` listings, `zfs get`, versions, arcstats and lsblk."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage.zfs.base import (
    COMMENT_PROPERTY,
    ArcStats,
    BlockDevice,
    Dataset,
    Pool,
    PropertyValue,
    Version,
)
from storage.zfs.parse.units import (
    parse_bool,
    parse_count,
    parse_int_or_none,
    parse_percent,
    parse_ratio,
)

POOL_COLUMNS = (
    "name",
    "size",
    "allocated",
    "free",
    "fragmentation",
    "capacity",
    "dedupratio",
    "health",
    "guid",
    "altroot",
    "ashift",
)
# Last, so a listing captured before them still parses with the columns it was taken with.
ENCRYPTION_COLUMNS = ("encryption", "encryptionroot", "keystatus", "keyformat", "keylocation")
DATASET_COLUMNS = (
    "name",
    "type",
    "used",
    "available",
    "referenced",
    "logicalused",
    "logicalreferenced",
    "usedbydataset",
    "usedbychildren",
    "usedbysnapshots",
    "usedbyrefreservation",
    "compressratio",
    "compression",
    "dedup",
    "recordsize",
    "volblocksize",
    "volsize",
    "quota",
    "refquota",
    "reservation",
    "refreservation",
    "atime",
    "mountpoint",
    "readonly",
    "sync",
    COMMENT_PROPERTY,
    *ENCRYPTION_COLUMNS,
)


def split_rows(text: str, columns: Sequence[str]) -> list[dict[str, str]]:
    """Tab-separated `-H` output -> one dict per line keyed by the requested columns."""
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != len(columns):
            raise ValueError(f"expected {len(columns)} columns, got {len(fields)}: {line!r}")
        rows.append(dict(zip(columns, fields, strict=True)))
    return rows


def parse_zpool_list(text: str, columns: Sequence[str] = POOL_COLUMNS) -> list[Pool]:
    """`zpool list -H -p -o <POOL_COLUMNS>` -> pools."""
    return [_pool(row) for row in split_rows(text, columns)]


def _pool(row: dict[str, str]) -> Pool:
    return Pool(
        name=row["name"],
        size=parse_count(row["size"]),
        allocated=parse_count(row["allocated"]),
        free=parse_count(row["free"]),
        fragmentation=parse_percent(row["fragmentation"]),
        capacity=parse_percent(row["capacity"]) or 0,
        dedupratio=parse_ratio(row["dedupratio"]),
        health=row["health"],
        ashift=parse_int_or_none(row.get("ashift", "-")) or None,
        guid=row.get("guid", ""),
        altroot="" if row.get("altroot", "-") == "-" else row["altroot"],
    )


def parse_zfs_list(
    text: str, *, read_at: float, columns: Sequence[str] = DATASET_COLUMNS
) -> list[Dataset]:
    """`zfs list -H -p -o <DATASET_COLUMNS>` run at Unix time `read_at` -> datasets and zvols."""
    return [_dataset(row, read_at) for row in split_rows(text, columns)]


def _size_or_none(row: dict[str, str], key: str) -> int | None:
    """A size that is unset when absent, '-', 'none' or 0 (quotas, reservations)."""
    value = parse_int_or_none(row.get(key, "-"))
    return value or None


def _dataset(row: dict[str, str], read_at: float) -> Dataset:
    is_volume = row["type"] == "volume"
    comment = row.get(COMMENT_PROPERTY, "-")
    mountpoint = row.get("mountpoint", "-")
    return Dataset(
        name=row["name"],
        type=row["type"],
        used=parse_count(row["used"]),
        available=parse_count(row["available"]),
        referenced=parse_count(row["referenced"]),
        logicalused=parse_count(row["logicalused"]),
        compressratio=parse_ratio(row["compressratio"]),
        compression=row["compression"],
        dedup=row["dedup"],
        logicalreferenced=parse_count(row["logicalreferenced"]),
        usedbydataset=parse_count(row["usedbydataset"]),
        usedbychildren=parse_count(row["usedbychildren"]),
        usedbysnapshots=parse_count(row["usedbysnapshots"]),
        usedbyrefreservation=parse_count(row["usedbyrefreservation"]),
        figures_read_at=read_at,
        recordsize=None if is_volume else parse_int_or_none(row.get("recordsize", "-")),
        volblocksize=parse_int_or_none(row.get("volblocksize", "-")) if is_volume else None,
        volsize=parse_int_or_none(row.get("volsize", "-")) if is_volume else None,
        quota=_size_or_none(row, "quota"),
        refquota=_size_or_none(row, "refquota"),
        reservation=_size_or_none(row, "reservation"),
        refreservation=_size_or_none(row, "refreservation"),
        atime=None if is_volume else parse_bool(row.get("atime", "-")),
        mountpoint=None if mountpoint in ("-", "") else mountpoint,
        readonly=parse_bool(row.get("readonly", "off")) is True,
        sync=row.get("sync", "standard"),
        comment="" if comment == "-" else comment,
        **_encryption(row),
    )


def _encryption(row: dict[str, str]) -> dict[str, str]:
    """The Dataset's encryption fields; ZFS prints "-" or "none" where they do not apply."""

    def field(key: str) -> str:
        value = row.get(key, "-")
        return "" if value in ("-", "none") else value

    return {
        "encryption": row.get("encryption", "off"),
        "encryption_root": field("encryptionroot"),
        "key_status": field("keystatus"),
        "key_format": field("keyformat"),
        "key_location": field("keylocation"),
    }


def parse_zfs_get(text: str) -> dict[str, dict[str, PropertyValue]]:
    """`zfs get -H -p -o name,property,value,source` -> {dataset: {property: value}}."""
    result: dict[str, dict[str, PropertyValue]] = {}
    for row in split_rows(text, ("name", "property", "value", "source")):
        props = result.setdefault(row["name"], {})
        props[row["property"]] = PropertyValue(value=row["value"], source=row["source"])
    return result


def parse_zpool_get(text: str) -> dict[str, dict[str, str]]:
    """`zpool get -H -p -o name,property,value` -> {pool: {property: value}}."""
    result: dict[str, dict[str, str]] = {}
    for row in split_rows(text, ("name", "property", "value")):
        result.setdefault(row["name"], {})[row["property"]] = row["value"]
    return result


def parse_version(text: str) -> Version:
    """`zfs version` ("zfs-2.1.11-1", "zfs-kmod-2.1.11-1") -> Version."""
    userland = kernel = ""
    for line in text.split():
        if line.startswith("zfs-kmod-"):
            kernel = line.removeprefix("zfs-kmod-")
        elif line.startswith("zfs-"):
            userland = line.removeprefix("zfs-")
    return Version(userland=userland, kernel=kernel)


_ARC_FIELDS = (
    "size",
    "c",
    "c_min",
    "c_max",
    "hits",
    "misses",
    "demand_data_hits",
    "demand_data_misses",
    "demand_metadata_hits",
    "demand_metadata_misses",
    "l2_hits",
    "l2_misses",
    "l2_size",
    "l2_asize",
)


def parse_arcstats(text: str) -> ArcStats:
    """/proc/spl/kstat/zfs/arcstats -> ArcStats (absent counters read as 0)."""
    raw: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        # data lines are "name type value"; the kstat header lines are not
        if len(parts) == 3 and parts[1].isdigit() and parts[2].lstrip("-").isdigit():
            raw[parts[0]] = int(parts[2])
    named = {key: raw.get(key, 0) for key in _ARC_FIELDS}
    return ArcStats(**named, raw=raw)


def parse_lsblk(text: str) -> list[BlockDevice]:
    """`lsblk -J -b -o NAME,PATH,SIZE,TYPE,MODEL,SERIAL,ROTA,FSTYPE,MOUNTPOINT` -> devices."""
    data = json.loads(text)
    return [_block_device(dev) for dev in data.get("blockdevices", [])]


def _block_device(dev: dict[str, Any]) -> BlockDevice:
    name = str(dev.get("name", ""))
    rota = dev.get("rota")
    return BlockDevice(
        name=name,
        path=str(dev.get("path") or f"/dev/{name}"),
        size=int(dev.get("size") or 0),
        type=str(dev.get("type") or ""),
        model=str(dev.get("model") or "").strip(),
        serial=str(dev.get("serial") or "").strip(),
        rotational=None if rota is None else rota in (True, "1", 1),
        fstype=str(dev.get("fstype") or ""),
        mountpoint=str(dev.get("mountpoint") or ""),
        children=tuple(_block_device(child) for child in dev.get("children", [])),
    )

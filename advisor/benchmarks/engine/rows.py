"""One benchmark row per setting: a scratch dataset made, the sample copied in, read back cold.

Plain Python over the storage engine, so the VM lane runs exactly what the job runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from advisor.benchmarks.engine import copying, reading, scratch
from advisor.benchmarks.engine.load import (
    LoadSampler,
    LoadSummary,
    arc_data_counters,
    arc_hit_percent,
)
from advisor.benchmarks.engine.settings import Setting
from storage.zfs import errors as zfs
from storage.zfs.base import ZfsEngine

log = logging.getLogger(__name__)
MB = 1_000_000
DEDUP_NOTE = (
    "Space measured from the pool's ALLOC change (dedup table included), scaled to usable "
    "bytes like the other rows: a dedup dataset's own used does not shrink on OpenZFS."
)


def create_scratch(
    engine: ZfsEngine, name: str, setting: Setting, job_id: int, *, from_disk: bool
) -> None:
    """A scratch dataset with the setting's properties, marked as this job's.

    from_disk: primarycache=metadata, so the read-back comes from the disks, not from what
    the ARC kept of the copy (an engine without an ARC has nothing to set).
    """
    properties = {**setting.properties, scratch.PROPERTY: str(job_id)}
    if from_disk:
        properties.update(reading.PRIMARYCACHE)
    engine.create_dataset(name, properties=properties)


def measure_setting(
    engine: ZfsEngine,
    pool: str,
    name: str,
    setting: Setting,
    pieces: Sequence[copying.Piece],
    write: Callable[[int], None],
    read: Callable[[int], None],
) -> dict[str, Any]:
    """Copy the sample into the scratch dataset, settle, read it back cold: one result row."""
    engine.settle(pool)
    alloc_before = engine.get_pool(pool).allocated
    target = Path(engine.get_dataset(name).mountpoint or "")
    with LoadSampler() as sampler:
        copied = copying.copy_sample(pieces, target, write)
    engine.settle(pool)
    dataset = engine.get_dataset(name)
    alloc_delta = max(0, engine.get_pool(pool).allocated - alloc_before)
    reading.drop_page_cache(target)
    arc_before = arc_data_counters()
    back = reading.read_back(target, read)
    arc_hits = arc_hit_percent(arc_before, arc_data_counters())
    return row(setting, dataset.logicalused, dataset.used, copied, back, sampler.summary()) | {
        "compressratio": dataset.compressratio,
        "dataset_used_bytes": dataset.used,
        "pool_alloc_bytes": alloc_delta,
        # What share of the read-back the ARC served (other readers of the pool count too):
        # near 0 shows the reads came from the disks. None where there is no ARC.
        "read_arc_hit_percent": arc_hits,
    }


def dedup_space(engine: ZfsEngine, pool: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give dedup rows the space their pool ALLOC change shows, in the units of `used`.

    ALLOC counts raw sectors (parity included) while `used` counts usable bytes: the ratio
    between them is measured on this run's other rows, else taken from the pool's sizes.
    """
    plain = [r for r in rows if not is_dedup(r) and r["pool_alloc_bytes"] > 0]
    if plain:
        usable = sum(r["dataset_used_bytes"] for r in plain) / sum(
            r["pool_alloc_bytes"] for r in plain
        )
    else:
        usable = pool_usable_fraction(engine, pool)
    for found in rows:
        if is_dedup(found):
            found["used_bytes"] = round(found["pool_alloc_bytes"] * min(1.0, usable))
            found["ratio"] = ratio(found["logical_bytes"], found["used_bytes"])
    return rows


def is_dedup(found: dict[str, Any]) -> bool:
    """True for a row measured with dedup on."""
    return bool(found["properties"].get("dedup", "off") != "off")


def pool_usable_fraction(engine: ZfsEngine, pool: str) -> float:
    """What share of the pool's raw size its datasets can use (parity and slop left out)."""
    size = engine.get_pool(pool).size
    root = engine.get_dataset(pool)
    return (root.used + root.available) / size if size else 1.0


def ratio(logical: int, used: int) -> float:
    """Logical bytes over the space they took."""
    return round(logical / used, 2) if used else 1.0


def row(
    setting: Setting,
    logical: int,
    used: int,
    copied: copying.CopyResult,
    back: reading.ReadResult,
    load: LoadSummary,
) -> dict[str, Any]:
    """One row of the results table, in the shape the pages and API read."""
    return {
        "setting": setting.key,
        "label": setting.label,
        "properties": dict(setting.properties),
        "logical_bytes": logical,
        "used_bytes": used,
        "ratio": ratio(logical, used),
        "write_mb_s": rate(copied.bytes, copied.seconds),
        "read_mb_s": rate(back.bytes, back.seconds),
        "cpu_percent": load.cpu_percent,
        "cpu_peak_percent": load.cpu_peak_percent,
        "ram_used_bytes": load.ram_used_bytes,
        "arc_bytes": load.arc_bytes,
        "seconds_write": round(copied.seconds, 3),
        "seconds_read": round(back.seconds, 3),
        "note": DEDUP_NOTE if setting.dedup else "",
    }


def rate(size: int, seconds: float) -> float:
    """MB/s (decimal, as fio prints them)."""
    return round(size / MB / seconds, 1) if seconds > 0 else 0.0


def destroy(engine: ZfsEngine, names: Sequence[str]) -> None:
    """Destroy scratch datasets, newest first; one that resists is left for the next cleanup."""
    for name in reversed(names):
        try:
            engine.destroy_dataset(name, recursive=True, force=True)
        except zfs.DatasetNotFound:
            continue
        except zfs.ZfsError:
            log.exception("could not destroy scratch dataset %s", name)

"""Reads of dedup: a pool's table, the ARC limit, what dedup would cost, what was measured."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psutil

from nasui.models import Job
from storage.engine import get_engine
from storage.zfs import errors as zfs
from storage.zfs.dedup import DedupEstimate, ddt_ram_bytes, estimate_dedup
from storage.zfs.stats import DedupTable

# The kind of the advisor's estimate jobs (see measured_dedup).
ADVISOR_ESTIMATE = "advisor.estimate"


def ddt_or_none(pool: str) -> DedupTable | None:
    """The pool's DDT summary; None when the engine cannot read it."""
    try:
        return get_engine().dedup_table(pool)
    except zfs.ZfsError:
        return None


def arc_max_or_none() -> int | None:
    """The ARC's size limit, None where there is no ARC (sandbox, no module)."""
    try:
        return get_engine().arcstats().c_max or None
    except zfs.ZfsError:
        return None


def pool_free(pool: str) -> int:
    """The pool's free bytes (zpool's FREE): room for that much unique data at most."""
    return get_engine().get_pool(pool).free


def ddt_core_bytes_per_entry(pool: str | None) -> int | None:
    """In-core bytes per DDT entry of the pool's own table; None when it has none."""
    ddt = ddt_or_none(pool) if pool else None
    if ddt is not None and ddt.entries > 0 and ddt.size_in_core > 0:
        return max(1, ddt.size_in_core // ddt.entries)
    return None


def dedup_estimate(
    *, pool: str | None, data_bytes: int, block_size: int, measured: MeasuredDedup | None = None
) -> DedupEstimate:
    """What dedup would need for `data_bytes` in blocks of `block_size` on this machine; sized
    on the unique blocks (and bytes per entry) of a measurement when there is one."""
    if measured is not None:
        per_entry, entries = measured.core_bytes_per_entry, measured.unique_blocks
    else:
        per_entry, entries = ddt_core_bytes_per_entry(pool), None
    return estimate_dedup(
        data_bytes=data_bytes,
        block_size=block_size,
        ram_total=psutil.virtual_memory().total,
        arc_max=arc_max_or_none(),
        core_bytes_per_entry=per_entry,
        entries=entries,
    )


@dataclass(frozen=True)
class MeasuredDedup:
    """What the advisor measured on a dataset or zvol's own data (its latest estimate)."""

    job_id: int
    measured_at: datetime
    ratio: float
    unique_blocks: int
    verdict: str  # worth, costly, trap
    reason: str
    zdb_ratio: float | None
    core_bytes_per_entry: int | None = None  # the pool's own, when the measurement used it

    @property
    def ram_bytes(self) -> int:
        """RAM the table of the measured unique blocks needs (the one DDT formula)."""
        return ddt_ram_bytes(self.unique_blocks, self.core_bytes_per_entry)


def measured_dedup(name: str) -> MeasuredDedup | None:
    """The latest finished advisor estimate on `name`; None when it was never measured."""
    # The advisor sits above storage, so storage reads its results from the shared jobs table.
    job = (
        Job.objects.filter(
            kind=ADVISOR_ESTIMATE, status=Job.Status.SUCCEEDED, arguments__source=name
        )
        .exclude(result=None)
        .first()
    )
    result = (job.result if job else None) or {}
    dedup = result.get("dedup")
    if job is None or not dedup or job.finished_at is None:
        return None
    zdb = result.get("zdb") or {}
    return MeasuredDedup(
        job_id=job.pk,
        measured_at=job.finished_at,
        ratio=float(dedup["ratio"]),
        unique_blocks=int(dedup["unique_blocks"]),
        verdict=str(dedup["verdict"]),
        reason=str(dedup.get("reason", "")),
        zdb_ratio=float(zdb["ratio"]) if zdb.get("ratio") is not None else None,
        core_bytes_per_entry=_own_per_entry(dedup),
    )


def _own_per_entry(dedup: dict[str, Any]) -> int | None:
    """The pool's own in-core bytes per entry a measurement used; None when it used the rule."""
    if dedup.get("per_entry_source") != "pool" or not dedup.get("core_bytes_per_entry"):
        return None
    return int(dedup["core_bytes_per_entry"])

"""The estimate job: sample the source, estimate every algorithm and dedup, optionally zdb -S."""

from __future__ import annotations

import time
from typing import Any

import psutil

from advisor.estimates.engine.run import estimate as run_estimate
from advisor.estimates.engine.sources import Input
from advisor.sources import Source, resolve_source
from nasui.jobs import JobReporter, job_task
from storage.dedup import selectors as dedup_selectors
from storage.engine import get_engine
from storage.zfs.codecs import algorithm

# The estimate's share of the progress bar when zdb -S runs after it.
ESTIMATE_SHARE_WITH_ZDB = 70


@job_task("advisor.estimate")
def estimate(
    reporter: JobReporter,
    source_kind: str,
    source: str,
    sample_bytes: int,
    time_seconds: int,
    run_zdb: bool = False,
) -> dict[str, Any]:
    """Sample the input for compression, hash it for dedup, and run zdb -S when asked."""
    resolved = resolve_source(source_kind, source)
    share = ESTIMATE_SHARE_WITH_ZDB if run_zdb else 100

    def progress(percent: int, message: str) -> None:
        reporter.progress(percent * share // 100, message)

    result = run_estimate(
        _input(resolved),
        sample_bytes=sample_bytes,
        time_budget=float(time_seconds),
        dedup_compression=algorithm(resolved.compression),
        ram_total=psutil.virtual_memory().total,
        arc_max=dedup_selectors.arc_max_or_none(),
        core_bytes_per_entry=dedup_selectors.ddt_core_bytes_per_entry(resolved.pool or None),
        progress=progress,
    )
    result["zdb"] = _zdb(reporter, resolved.pool) if run_zdb else None
    return result


def _input(source: Source) -> Input:
    """The estimator's view of a checked source."""
    return Input(
        kind=source.kind,
        name=source.name,
        path=source.path,
        block_size=source.block_size,
        sector_size=source.sector_size,
    )


def _zdb(reporter: JobReporter, pool: str) -> dict[str, Any]:
    """`zdb -S` on the whole pool: the reference the estimate is compared with."""
    reporter.progress(ESTIMATE_SHARE_WITH_ZDB, f"Simulating dedup on {pool} with zdb -S")
    started = time.monotonic()
    simulation = get_engine().simulate_dedup(pool)
    total = [row for row in simulation.histogram if row.refcnt == "Total"]
    return {
        "ratio": simulation.dedup,
        "unique_blocks": simulation.entries,
        "blocks": total[0].ref_blocks if total else sum(r.ref_blocks for r in simulation.histogram),
        "seconds": round(time.monotonic() - started, 2),
        "pool": pool,
    }

"""The settings benchmark ("Try my data") and fio as cancellable jobs; scratch data never stays.

Every scratch dataset or zvol is destroyed in `finally` (after a cancel too); one left by a
worker that died is destroyed when the next worker starts (worker_ready -> scratch_cleanup).
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Sequence
from typing import Any

import psutil
from celery.signals import worker_ready

from advisor.benchmarks.engine import copying, reading, scratch
from advisor.benchmarks.engine import fio as fio_bench
from advisor.benchmarks.engine import rows as rows_bench
from advisor.benchmarks.engine.recommend import recommend
from advisor.benchmarks.engine.settings import Setting, settings_for
from advisor.benchmarks.services import scratch_cleanup
from advisor.sources import resolve_source
from nasui.jobs import JobReporter, job_task, reap_orphaned_jobs
from storage.dedup import selectors as dedup_selectors
from storage.engine import get_engine, is_sandbox

log = logging.getLogger(__name__)
MB = 1_000_000
PROGRESS_SECONDS = 0.5  # progress rows written at most this often: a chunk is 1 MiB
WARM_END = 5  # percent: reading the source once before the first setting
ROWS_END = 95  # percent: the settings; the rest is cleanup
WRITE_SHARE = 0.7  # of each setting's span: the copy; the rest is the read-back
SANDBOX_FIO_NOTE = (
    "Sandbox engine: the scratch zvol or dataset is a file on this machine's own file system, "
    "tested buffered, so these are its figures (and its page cache's), not a pool's."
)


class Ticker:
    """Maps bytes done within a span of the progress bar, writing at most twice a second."""

    def __init__(self, reporter: JobReporter, start: float, end: float, total: int, what: str):
        self.reporter, self.start, self.end = reporter, start, end
        self.total, self.what = max(1, total), what
        self._last = 0.0

    def __call__(self, done: int) -> None:
        """Report `done` bytes (reporter.progress raises JobCancelled on a cancel)."""
        now = time.monotonic()
        if now - self._last < PROGRESS_SECONDS and done < self.total:
            return
        self._last = now
        percent = self.start + (self.end - self.start) * min(done, self.total) / self.total
        self.reporter.progress(int(percent), f"{self.what}: {done * 100 // self.total}%")


@job_task("advisor.benchmark")
def benchmark(
    reporter: JobReporter,
    source_kind: str,
    source: str,
    pool: str,
    sample_bytes: int,
    settings: list[str],
) -> dict[str, Any]:
    """Copy a sample into a scratch dataset per setting, measure each, destroy them all."""
    resolved = resolve_source(source_kind, source)
    sample = copying.draw_sample(resolved.path, sample_bytes)
    pieces, total = sample.pieces, sample.bytes
    if not total:
        raise ValueError(f"{source} holds no data to copy.")
    arc_max = dedup_selectors.arc_max_or_none()
    warmed = _warm(reporter, pieces, total)
    created: list[str] = []
    try:
        rows = _rows(reporter, pool, pieces, total, settings_for(settings), created)
    finally:
        rows_bench.destroy(get_engine(), created)
    # Where the engine does not compress while writing, every setting writes alike: the
    # speeds then say nothing about the settings and the recommendation leaves them out.
    honest = get_engine().compresses_on_write
    return {
        "source": {"kind": source_kind, "name": source, "bytes": total, "files": sample.files},
        "sample": copying.summary(sample),
        "pool": pool,
        "sample_bytes": sample_bytes,
        "read_method": reading.read_method(
            primarycache_metadata=not is_sandbox(), sample_bytes=total, arc_max=arc_max
        ),
        "arc_max": arc_max,
        "source_warmed": warmed,
        "engine": "sandbox" if is_sandbox() else "cli",
        "compresses_on_write": honest,
        "rows": rows,
        "recommendation": recommend(rows, speeds=honest, sample_share=sample.share).as_dict(),
    }


def _warm(reporter: JobReporter, pieces: Sequence[copying.Piece], total: int) -> bool:
    """Read the source once when it fits in RAM, so the first setting is not the only one
    to read it cold; False when it does not fit (every copy then reads it from disk)."""
    if total > psutil.virtual_memory().available // 2:
        return False
    copying.warm_sample(pieces, Ticker(reporter, 0, WARM_END, total, "Reading the sample"))
    return True


def _rows(
    reporter: JobReporter,
    pool: str,
    pieces: Sequence[copying.Piece],
    total: int,
    settings: Sequence[Setting],
    created: list[str],
) -> list[dict[str, Any]]:
    """One measured row per setting; every scratch dataset is added to `created` at once."""
    span = (ROWS_END - WARM_END) / len(settings)
    rows = []
    for index, setting in enumerate(settings):
        start = WARM_END + index * span
        name = scratch.scratch_name(pool, reporter.job_id, setting.key)
        reporter.progress(int(start), f"{setting.label}: creating {name}")
        rows_bench.create_scratch(
            get_engine(), name, setting, reporter.job_id, from_disk=not is_sandbox()
        )
        created.append(name)
        write = Ticker(reporter, start, start + span * WRITE_SHARE, total, f"{setting.label}: copy")
        read = Ticker(
            reporter, start + span * WRITE_SHARE, start + span, total, f"{setting.label}: read back"
        )
        engine = get_engine()
        rows.append(rows_bench.measure_setting(engine, pool, name, setting, pieces, write, read))
    return rows_bench.dedup_space(get_engine(), pool, rows)


@job_task("advisor.fio")
def fio(
    reporter: JobReporter,
    target_kind: str,
    target: str,
    size_bytes: int,
    profiles: list[str],
    runtime_seconds: int,
) -> dict[str, Any]:
    """fio's standard profiles on a scratch child of a dataset or a scratch zvol of a pool."""
    arc_max = dedup_selectors.arc_max_or_none()
    version = fio_bench.parse_version(_run_quick(fio_bench.version_argv()))
    name = scratch.scratch_name(target, reporter.job_id, "fio")
    created: list[str] = []
    try:
        reporter.progress(1, f"Creating {name}")
        fio_target = fio_bench.fio_target(
            get_engine(), target_kind, name, size_bytes, reporter.job_id, created
        )
        results = fio_bench.run_profiles(fio_target, profiles, runtime_seconds, reporter.progress)
    finally:
        rows_bench.destroy(get_engine(), created)
    return {
        "target": {
            "kind": target_kind,
            "name": target,
            "path": str(fio_target.path),
            "scratch": name,
            "direct": fio_target.direct,
        },
        "size_bytes": size_bytes,
        "runtime_seconds": runtime_seconds,
        "arc_max": arc_max,
        "arc_warning": fio_bench.arc_warning(size_bytes, arc_max),
        "fio_version": version,
        "engine": "sandbox" if is_sandbox() else "cli",
        "engine_note": SANDBOX_FIO_NOTE if is_sandbox() else "",
        "profiles": results,
    }


def _run_quick(argv: list[str]) -> str:
    """A short command's stdout (fio --version)."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=True)
    return done.stdout


@worker_ready.connect
def _cleanup_scratch_on_start(**_: object) -> None:
    """Scratch data of jobs a dead worker was running is destroyed when a worker starts."""
    try:
        reap_orphaned_jobs()  # their jobs must no longer count as running
        destroyed = scratch_cleanup()
    except Exception:  # a failed cleanup must not stop the worker from starting
        log.exception("scratch cleanup at worker start failed")
        return
    if destroyed:
        log.warning("destroyed scratch data left by stopped jobs: %s", ", ".join(destroyed))

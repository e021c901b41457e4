"""The settings benchmark ("Try my data") and fio as cancellable jobs; scratch data never stays.

Every scratch dataset or zvol is destroyed in `finally` (after a cancel too); one left by a
worker that died is destroyed when the next worker starts (worker_ready -> scratch_cleanup).
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psutil
from celery.signals import worker_ready

from advisor.bench import copying, reading, scratch
from advisor.bench import fio as fio_bench
from advisor.bench.load import LoadSampler, LoadSummary, arc_data_counters, arc_hit_percent
from advisor.bench.recommend import recommend
from advisor.bench.settings import Setting, settings_for
from advisor.sources import resolve_source
from nasui.jobs import JobReporter, job_task, reap_orphaned_jobs
from storage import selectors as storage
from storage.engine import get_engine, is_sandbox
from storage.zfs import errors as zfs

log = logging.getLogger(__name__)
MB = 1_000_000
PROGRESS_SECONDS = 0.5  # progress rows written at most this often: a chunk is 1 MiB
WARM_END = 5  # percent: reading the source once before the first setting
ROWS_END = 95  # percent: the settings; the rest is cleanup
WRITE_SHARE = 0.7  # of each setting's span: the copy; the rest is the read-back
DEDUP_NOTE = (
    "Space measured from the pool's ALLOC change (dedup table included), scaled to usable "
    "bytes like the other rows: a dedup dataset's own used does not shrink on OpenZFS."
)
ZVOL_DEVICE_WAIT = 30.0  # seconds for udev to create a new zvol's device node
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
    pieces = copying.plan_sample(resolved.path, sample_bytes)
    total = copying.sample_size(pieces)
    if not total:
        raise ValueError(f"{source} holds no data to copy.")
    arc_max = storage.arc_max_or_none()
    warmed = _warm(reporter, pieces, total)
    created: list[str] = []
    try:
        rows = _rows(reporter, pool, pieces, total, settings_for(settings), created)
    finally:
        _destroy(created)
    return {
        "source": {"kind": source_kind, "name": source, "bytes": total, "files": len(pieces)},
        "pool": pool,
        "sample_bytes": sample_bytes,
        "read_method": reading.read_method(
            primarycache_metadata=not is_sandbox(), sample_bytes=total, arc_max=arc_max
        ),
        "arc_max": arc_max,
        "source_warmed": warmed,
        "engine": "sandbox" if is_sandbox() else "cli",
        "rows": rows,
        "recommendation": recommend(rows).as_dict(),
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
        _create_scratch(name, setting, reporter.job_id)
        created.append(name)
        write = Ticker(reporter, start, start + span * WRITE_SHARE, total, f"{setting.label}: copy")
        read = Ticker(
            reporter, start + span * WRITE_SHARE, start + span, total, f"{setting.label}: read back"
        )
        rows.append(_measure(pool, name, setting, pieces, write, read))
    return _dedup_space(pool, rows)


def _create_scratch(name: str, setting: Setting, job_id: int) -> None:
    """A scratch dataset with the setting's properties, marked as this job's."""
    properties = {**setting.properties, scratch.PROPERTY: str(job_id)}
    if not is_sandbox():
        # Reads then come from the disks, not from what the ARC kept of the copy.
        properties.update(reading.PRIMARYCACHE)
    get_engine().create_dataset(name, properties=properties)


def _measure(
    pool: str,
    name: str,
    setting: Setting,
    pieces: Sequence[copying.Piece],
    write: Callable[[int], None],
    read: Callable[[int], None],
) -> dict[str, Any]:
    """Copy the sample into the scratch dataset, settle, read it back cold: one result row."""
    engine = get_engine()
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
    return _row(setting, dataset.logicalused, dataset.used, copied, back, sampler.summary()) | {
        "compressratio": dataset.compressratio,
        "dataset_used_bytes": dataset.used,
        "pool_alloc_bytes": alloc_delta,
        # What share of the read-back the ARC served (other readers of the pool count too):
        # near 0 shows the reads came from the disks. None where there is no ARC.
        "read_arc_hit_percent": arc_hits,
    }


def _dedup_space(pool: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give dedup rows the space their pool ALLOC change shows, in the units of `used`.

    ALLOC counts raw sectors (parity included) while `used` counts usable bytes: the ratio
    between them is measured on this run's other rows, else taken from the pool's sizes.
    """
    plain = [r for r in rows if not _is_dedup(r) and r["pool_alloc_bytes"] > 0]
    if plain:
        usable = sum(r["dataset_used_bytes"] for r in plain) / sum(
            r["pool_alloc_bytes"] for r in plain
        )
    else:
        usable = _pool_usable_fraction(pool)
    for row in rows:
        if _is_dedup(row):
            row["used_bytes"] = round(row["pool_alloc_bytes"] * min(1.0, usable))
            row["ratio"] = _ratio(row["logical_bytes"], row["used_bytes"])
    return rows


def _is_dedup(row: dict[str, Any]) -> bool:
    """True for a row measured with dedup on."""
    return bool(row["properties"].get("dedup", "off") != "off")


def _pool_usable_fraction(pool: str) -> float:
    """What share of the pool's raw size its datasets can use (parity and slop left out)."""
    engine = get_engine()
    size = engine.get_pool(pool).size
    root = engine.get_dataset(pool)
    return (root.used + root.available) / size if size else 1.0


def _ratio(logical: int, used: int) -> float:
    """Logical bytes over the space they took."""
    return round(logical / used, 2) if used else 1.0


def _row(
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
        "ratio": _ratio(logical, used),
        "write_mb_s": _rate(copied.bytes, copied.seconds),
        "read_mb_s": _rate(back.bytes, back.seconds),
        "cpu_percent": load.cpu_percent,
        "cpu_peak_percent": load.cpu_peak_percent,
        "ram_used_bytes": load.ram_used_bytes,
        "arc_bytes": load.arc_bytes,
        "seconds_write": round(copied.seconds, 3),
        "seconds_read": round(back.seconds, 3),
        "note": DEDUP_NOTE if setting.dedup else "",
    }


def _rate(size: int, seconds: float) -> float:
    """MB/s (decimal, as fio prints them)."""
    return round(size / MB / seconds, 1) if seconds > 0 else 0.0


def _destroy(names: Sequence[str]) -> None:
    """Destroy scratch datasets, newest first; one that resists is left for scratch_cleanup."""
    engine = get_engine()
    for name in reversed(names):
        try:
            engine.destroy_dataset(name, recursive=True, force=True)
        except zfs.DatasetNotFound:
            continue
        except zfs.ZfsError:
            log.exception("could not destroy scratch dataset %s", name)


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
    arc_max = storage.arc_max_or_none()
    version = fio_bench.parse_version(_run_quick(fio_bench.version_argv()))
    name = scratch.scratch_name(target, reporter.job_id, "fio")
    created: list[str] = []
    try:
        reporter.progress(1, f"Creating {name}")
        fio_target = _fio_target(target_kind, name, size_bytes, reporter.job_id, created)
        results = _profiles(reporter, fio_target, profiles, runtime_seconds)
    finally:
        _destroy(created)
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


def _fio_target(
    kind: str, name: str, size_bytes: int, job_id: int, created: list[str]
) -> fio_bench.Target:
    """Create the scratch file system or zvol fio writes to; `created` learns it at once."""
    engine = get_engine()
    marked = {scratch.PROPERTY: str(job_id)}
    if kind == "zvol":
        volsize = -(-size_bytes // copying.CHUNK) * copying.CHUNK  # whole MiB: any volblocksize
        engine.create_zvol(name, size=volsize, sparse=True, properties=marked)
        created.append(name)
        path = _zvol_device(name)
        return fio_bench.Target(path, size_bytes, direct=path.is_block_device())
    # A child inherits the dataset's compression, recordsize and dedup: what fio measures.
    engine.create_dataset(name, properties=marked)
    created.append(name)
    mountpoint = engine.get_dataset(name).mountpoint or ""
    return fio_bench.Target(Path(mountpoint) / "fio.dat", size_bytes, direct=False)


def _zvol_device(name: str) -> Path:
    """The new zvol's device (or sandbox file), once udev has made it."""
    path = get_engine().zvol_path(name)
    deadline = time.monotonic() + ZVOL_DEVICE_WAIT
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    if not path.exists():
        raise zfs.ZfsError(f"the device of {name} did not appear at {path}")
    return path


def _profiles(
    reporter: JobReporter, target: fio_bench.Target, names: list[str], runtime: int
) -> list[dict[str, Any]]:
    """Lay the test file out once, then run each profile; figures per profile."""
    reporter.progress(3, "Writing the test data once (reads need real blocks)")
    prefill = fio_bench.prefill_argv(target)
    limit = fio_bench.run_limit(None, target.size_bytes)
    fio_bench.run_fio(prefill, limit, lambda: reporter.progress(3, "Writing the test data"))
    results = []
    for index, key in enumerate(names):
        percent = 5 + 95 * index // len(names)
        reporter.progress(percent, f"{key} ({index + 1} of {len(names)})")
        results.append(_run_profile(reporter, fio_bench.PROFILES[key], target, runtime, percent))
    return results


def _run_profile(
    reporter: JobReporter,
    profile: fio_bench.Profile,
    target: fio_bench.Target,
    runtime: int,
    percent: int,
) -> dict[str, Any]:
    """One profile's figures, with the arguments it ran with (so runs can be compared)."""
    argv = fio_bench.fio_argv(profile, target, runtime)
    message = f"{profile.label}: running for {runtime} s"
    limit = fio_bench.run_limit(runtime, target.size_bytes)
    out = fio_bench.run_fio(argv, limit, lambda: reporter.progress(percent, message))
    figures = fio_bench.parse_figures(fio_bench.fio_json(out))
    return {"name": profile.name, "label": profile.label, **figures.as_dict(), "argv": argv[1:]}


@worker_ready.connect
def _cleanup_scratch_on_start(**_: object) -> None:
    """Scratch data of jobs a dead worker was running is destroyed when a worker starts."""
    from advisor.bench_services import scratch_cleanup  # services import this module

    try:
        reap_orphaned_jobs()  # their jobs must no longer count as running
        destroyed = scratch_cleanup()
    except Exception:  # a failed cleanup must not stop the worker from starting
        log.exception("scratch cleanup at worker start failed")
        return
    if destroyed:
        log.warning("destroyed scratch data left by stopped jobs: %s", ", ".join(destroyed))

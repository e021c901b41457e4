"""Writes of the settings benchmark and fio: checked starts, and cleanup of scratch datasets."""

from __future__ import annotations

import logging
import shutil
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from advisor.benchmarks.engine import fio, scratch
from advisor.benchmarks.engine import settings as catalogue
from advisor.sources import MIB, Problems, check_sample, check_source
from nasui import services as jobs
from nasui.lib.units import format_bytes
from nasui.models import Job
from storage.engine import get_engine
from storage.zfs import errors as zfs

log = logging.getLogger(__name__)
FIO_SIZE_MIN = 1 * MIB
FIO_SIZE_MAX = 1024 * 1024 * MIB
RUNTIME_MIN = 1
RUNTIME_MAX = 3600
# Metadata, indirect blocks and (for dedup) the table: room kept beyond the bytes themselves.
SPACE_HEADROOM = 1.1
TARGET_KINDS = ("dataset", "zvol")

__all__ = ["benchmark_start", "fio_start", "scratch_cleanup", "scratch_cleanup_after"]


def benchmark_start(
    *,
    user: User | AnonymousUser | None,
    source_kind: str,
    source: str,
    pool: str,
    sample_bytes: int,
    settings: list[str],
) -> Job:
    """Check the input and queue the settings benchmark (a cancellable job)."""
    problems: Problems = {}
    check_source(problems, source_kind, source)
    _check_keys(problems, "settings", settings, catalogue.unknown_keys(settings), "setting")
    check_sample(problems, sample_bytes)
    available = _pool_available(problems, "pool", pool)
    if available is not None and "sample_bytes" not in problems and settings:
        _check_space(
            problems,
            "sample_bytes",
            available,
            sample_bytes * len(settings),
            f"{len(settings)} copies of {format_bytes(sample_bytes)}",
        )
    if problems:
        raise ValidationError(problems)
    arguments: dict[str, Any] = {
        "source_kind": source_kind,
        "source": source,
        "pool": pool,
        "sample_bytes": sample_bytes,
        "settings": list(settings),
    }
    return jobs.job_start(
        kind="advisor.benchmark",
        title=f"Try {len(settings)} settings on {source} (scratch datasets on {pool})",
        task="advisor.benchmark",
        user=user,
        cancellable=True,
        **arguments,
    )


def fio_start(
    *,
    user: User | AnonymousUser | None,
    target_kind: str,
    target: str,
    size_bytes: int,
    profiles: list[str],
    runtime_seconds: int,
) -> Job:
    """Check the input and queue fio's standard profiles on a dataset or a scratch zvol."""
    problems: Problems = {}
    if shutil.which(fio.FIO) is None:
        problems[NON_FIELD_ERRORS] = [
            "fio is not installed on this machine (Debian: apt install fio)."
        ]
    _check_keys(problems, "profiles", profiles, fio.unknown_profiles(profiles), "profile")
    if not FIO_SIZE_MIN <= size_bytes <= FIO_SIZE_MAX:
        problems["size_bytes"] = [
            f"The test size must be between {format_bytes(FIO_SIZE_MIN)} "
            f"and {format_bytes(FIO_SIZE_MAX)}."
        ]
    if not RUNTIME_MIN <= runtime_seconds <= RUNTIME_MAX:
        problems["runtime_seconds"] = [
            f"Each profile runs between {RUNTIME_MIN} s and {RUNTIME_MAX // 60} minutes."
        ]
    available = _fio_target_available(problems, target_kind, target)
    if available is not None and "size_bytes" not in problems:
        _check_space(problems, "size_bytes", available, size_bytes, "the test file")
    if problems:
        raise ValidationError(problems)
    arguments: dict[str, Any] = {
        "target_kind": target_kind,
        "target": target,
        "size_bytes": size_bytes,
        "profiles": list(profiles),
        "runtime_seconds": runtime_seconds,
    }
    where = f"a scratch zvol on {target}" if target_kind == "zvol" else target
    return jobs.job_start(
        kind="advisor.fio",
        title=f"fio: {len(profiles)} profiles on {where}",
        task="advisor.fio",
        user=user,
        cancellable=True,
        **arguments,
    )


def _check_keys(
    problems: Problems, field: str, keys: list[str], unknown: list[str], what: str
) -> None:
    """A non-empty list of known, distinct keys."""
    if not keys:
        problems[field] = [f"Pick at least one {what}."]
    elif unknown:
        problems[field] = [f"Unknown {what}: {', '.join(unknown)}."]
    elif len(set(keys)) != len(keys):
        problems[field] = [f"Each {what} may be picked once."]


def _pool_available(problems: Problems, field: str, pool: str) -> int | None:
    """What the pool's datasets can still take; None (and a problem) when there is no pool."""
    if not pool or "/" in pool:
        problems[field] = ["Pick a pool."]
        return None
    try:
        return get_engine().get_dataset(pool).available
    except zfs.ZfsError:
        problems[field] = [f"No pool is named {pool!r}."]
        return None


def _fio_target_available(problems: Problems, kind: str, target: str) -> int | None:
    """Space left where fio will write; a problem naming `target` when it cannot go there."""
    if kind not in TARGET_KINDS:
        problems["target_kind"] = [f"Choose one of: {', '.join(TARGET_KINDS)}."]
        return None
    if kind == "zvol":
        return _pool_available(problems, "target", target)
    try:
        dataset = get_engine().get_dataset(target)
    except zfs.ZfsError:
        problems["target"] = [f"No dataset is named {target!r}."]
        return None
    if dataset.is_volume or not dataset.mountpoint:
        problems["target"] = [f"{target} is not a mounted file system: pick a dataset."]
        return None
    return dataset.available


def _check_space(problems: Problems, field: str, available: int, needed: int, what: str) -> None:
    """Refuse a run whose scratch data would not fit (with room for metadata)."""
    if needed * SPACE_HEADROOM > available:
        problems[field] = [
            f"{what} need about {format_bytes(needed * SPACE_HEADROOM)}, and only "
            f"{format_bytes(available)} is free there: pick a smaller size or fewer settings."
        ]


def scratch_cleanup() -> list[str]:
    """Destroy every scratch dataset or zvol whose job is not queued or running; their names."""
    engine = get_engine()
    live = set(
        Job.objects.filter(status__in=(Job.Status.PENDING, Job.Status.RUNNING)).values_list(
            "pk", flat=True
        )
    )
    destroyed: list[str] = []
    for name in _scratch_names():
        if scratch.scratch_job_id(name) in live or any(
            name.startswith(f"{gone}/") for gone in destroyed
        ):
            continue
        try:
            engine.destroy_dataset(name, recursive=True, force=True)
        except zfs.ZfsError as exc:
            log.warning("could not destroy scratch dataset %s: %s", name, exc)
            continue
        destroyed.append(name)
    return destroyed


def scratch_cleanup_after(kinds: list[str]) -> list[str]:
    """After the job reaper failed jobs whose process died: their scratch data goes now, not at
    the next worker start (a killed worker child leaves its pool running)."""
    if not any(kind.startswith("advisor.") for kind in kinds):
        return []
    destroyed = scratch_cleanup()
    if destroyed:
        log.warning("destroyed scratch data left by lost jobs: %s", ", ".join(destroyed))
    return destroyed


def _scratch_names() -> list[str]:
    """Scratch datasets and zvols on every pool: named so, and marked by their property."""
    engine = get_engine()
    found = []
    for pool in engine.list_pools():
        for dataset in engine.list_datasets(pool.name):
            job_id = scratch.scratch_job_id(dataset.name)
            if job_id is not None and _marked(dataset.name, job_id):
                found.append(dataset.name)
    return sorted(found, key=lambda n: n.split("/"))


def _marked(name: str, job_id: int) -> bool:
    """True when the dataset carries nasui:scratch=<its job id>: never destroy a look-alike."""
    try:
        found = get_engine().get_properties(name, [scratch.PROPERTY])
    except zfs.ZfsError:
        return False
    value = found.get(scratch.PROPERTY)
    return value is not None and value.value == str(job_id)

"""fio's profiles on a scratch file system or zvol: the target made, the test data laid out, each
profile run and parsed. Plain Python over the storage engine, so the VM lane runs what jobs run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from advisor.benchmarks.engine import copying, scratch
from advisor.benchmarks.engine import fio as fio_bench
from storage.zfs import errors as zfs
from storage.zfs.base import ZfsEngine

ZVOL_DEVICE_WAIT = 30.0  # seconds for udev to create a new zvol's device node
# Called with (percent, message) while fio runs; may raise to stop it (a job's cancel).
Report = Callable[[int, str], None]


def fio_target(
    engine: ZfsEngine, kind: str, name: str, size_bytes: int, job_id: int, created: list[str]
) -> fio_bench.Target:
    """Create the scratch file system or zvol fio writes to; `created` learns it at once."""
    marked = {scratch.PROPERTY: str(job_id)}
    if kind == "zvol":
        volsize = -(-size_bytes // copying.CHUNK) * copying.CHUNK  # whole MiB: any volblocksize
        engine.create_zvol(name, size=volsize, sparse=True, properties=marked)
        created.append(name)
        path = zvol_device(engine, name)
        return fio_bench.Target(path, size_bytes, direct=path.is_block_device())
    # A child inherits the dataset's compression, recordsize and dedup: what fio measures.
    engine.create_dataset(name, properties=marked)
    created.append(name)
    mountpoint = engine.get_dataset(name).mountpoint or ""
    return fio_bench.Target(Path(mountpoint) / "fio.dat", size_bytes, direct=False)


def zvol_device(engine: ZfsEngine, name: str) -> Path:
    """The new zvol's device (or sandbox file), once udev has made it."""
    path = engine.zvol_path(name)
    deadline = time.monotonic() + ZVOL_DEVICE_WAIT
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    if not path.exists():
        raise zfs.ZfsError(f"the device of {name} did not appear at {path}")
    return path


def run_profiles(
    target: fio_bench.Target, names: Sequence[str], runtime: int, report: Report
) -> list[dict[str, Any]]:
    """Lay the test file out once, then run each profile; figures per profile."""
    report(3, "Writing the test data once (reads need real blocks)")
    prefill = fio_bench.prefill_argv(target)
    limit = fio_bench.run_limit(None, target.size_bytes)
    fio_bench.run_fio(prefill, limit, lambda: report(3, "Writing the test data"))
    results = []
    for index, key in enumerate(names):
        percent = 5 + 95 * index // len(names)
        report(percent, f"{key} ({index + 1} of {len(names)})")
        results.append(run_profile(fio_bench.PROFILES[key], target, runtime, percent, report))
    return results


def run_profile(
    profile: fio_bench.Profile,
    target: fio_bench.Target,
    runtime: int,
    percent: int,
    report: Report,
) -> dict[str, Any]:
    """One profile's figures, with the arguments it ran with (so runs can be compared)."""
    argv = fio_bench.fio_argv(profile, target, runtime)
    message = f"{profile.label}: running for {runtime} s"
    limit = fio_bench.run_limit(runtime, target.size_bytes)
    out = fio_bench.run_fio(argv, limit, lambda: report(percent, message))
    figures = fio_bench.parse_figures(fio_bench.fio_json(out))
    return {"name": profile.name, "label": profile.label, **figures.as_dict(), "argv": argv[1:]}

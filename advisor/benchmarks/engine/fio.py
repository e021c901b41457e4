"""fio: the standard profiles, their argument lists, and what fio's JSON says about them."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from advisor.benchmarks.engine import copying, scratch
from nasui.lib.units import format_bytes
from storage.zfs import errors as zfs
from storage.zfs.base import ZfsEngine

FIO = "fio"
MB = 1_000_000  # MB/s as fio prints them (decimal), so figures match its own report
KIB = 1024
MIB = 1024 * KIB
POLL_SECONDS = 0.5  # how often a running fio is checked on (and the job asked about a cancel)
# Beyond its runtime fio lays its file out and flushes; a run that takes this much longer hangs.
GRACE_SECONDS = 600
SLOWEST_DISK = 5 * MB  # bytes/s: writing the test area slower than this counts as a hang


class FioError(Exception):
    """fio failed or printed nothing usable; the message says what it said."""


@dataclass(frozen=True)
class Profile:
    """One standard test: what fio is told to do, fixed so runs compare with each other."""

    name: str
    label: str
    rw: str  # fio's rw=
    block_size: int
    queue_depth: int
    read_percent: int | None = None  # rwmixread= for a mixed profile

    @property
    def writes(self) -> bool:
        """True when the profile writes (its data is flushed before fio stops the clock)."""
        return self.rw in ("write", "randwrite", "randrw", "rw")


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("seq-read-1m", "Sequential read, 1 MiB, one stream", "read", MIB, 1),
        Profile("seq-write-1m", "Sequential write, 1 MiB, one stream", "write", MIB, 1),
        Profile("rand-read-4k-qd1", "Random read, 4 KiB, queue depth 1", "randread", 4 * KIB, 1),
        Profile("rand-read-4k-qd32", "Random read, 4 KiB, queue depth 32", "randread", 4 * KIB, 32),
        Profile("rand-write-4k-qd1", "Random write, 4 KiB, queue depth 1", "randwrite", 4 * KIB, 1),
        Profile(
            "rand-write-4k-qd32", "Random write, 4 KiB, queue depth 32", "randwrite", 4 * KIB, 32
        ),
        Profile(
            "mixed-70-30-4k",
            "Mixed 70% read / 30% write, 4 KiB, queue depth 32",
            "randrw",
            4 * KIB,
            32,
            read_percent=70,
        ),
    )
}
DEFAULT = tuple(PROFILES)


@dataclass(frozen=True)
class Target:
    """Where fio does its I/O: a file in a dataset (buffered) or a zvol's device (direct)."""

    path: Path
    size_bytes: int
    # O_DIRECT: a zvol's block device takes it; ZFS 2.1 file systems refuse it, so a file in
    # a dataset is tested buffered (and the ARC serves what fits in it).
    direct: bool


def fio_argv(profile: Profile, target: Target, runtime_seconds: int, fio: str = FIO) -> list[str]:
    """The fio command for one profile: an argument list, JSON on stdout."""
    argv = [
        fio,
        f"--name={profile.name}",
        f"--filename={target.path}",
        f"--size={target.size_bytes}",
        f"--rw={profile.rw}",
        f"--bs={profile.block_size}",
        f"--runtime={runtime_seconds}",
        "--time_based=1",
        "--randrepeat=1",  # the same offsets every run: runs compare
        "--group_reporting=1",
        "--output-format=json",
        *_queue(profile, target),
    ]
    if profile.read_percent is not None:
        argv.append(f"--rwmixread={profile.read_percent}")
    if profile.writes and not target.direct:
        argv.append("--end_fsync=1")  # buffered writes count only once they reach the disks
    return argv


def _queue(profile: Profile, target: Target) -> list[str]:
    """How the queue depth is made: libaio's iodepth with O_DIRECT, else that many threads.

    Buffered I/O makes libaio synchronous, so a depth of 32 on a file needs 32 workers;
    sequential profiles keep one stream (parallel readers of one file would share its cache).
    """
    if target.direct:
        return ["--direct=1", "--ioengine=libaio", f"--iodepth={profile.queue_depth}"]
    jobs = 1 if profile.rw in ("read", "write") else profile.queue_depth
    return ["--direct=0", "--ioengine=psync", f"--numjobs={jobs}", "--thread"]


def prefill_argv(target: Target, fio: str = FIO) -> list[str]:
    """Write the whole test area once, sequentially: reads then meet real blocks, not holes."""
    return [
        fio,
        "--name=prefill",
        f"--filename={target.path}",
        f"--size={target.size_bytes}",
        "--rw=write",
        f"--bs={MIB}",
        "--end_fsync=1",
        "--output-format=json",
        f"--direct={int(target.direct)}",
        "--ioengine=libaio" if target.direct else "--ioengine=psync",
    ]


def run_limit(profile_runtime: int | None, size_bytes: int) -> float:
    """Seconds after which fio is taken to hang: its runtime, or the time to write the area."""
    if profile_runtime is None:
        return GRACE_SECONDS + size_bytes / SLOWEST_DISK
    return GRACE_SECONDS + profile_runtime


def version_argv(fio: str = FIO) -> list[str]:
    """`fio --version`."""
    return [fio, "--version"]


@dataclass(frozen=True)
class Figures:
    """One profile's results as the panel shows them."""

    read_mb_s: float
    write_mb_s: float
    read_iops: float
    write_iops: float
    lat_mean_us: float
    lat_p99_us: float

    def as_dict(self) -> dict[str, float]:
        """The figures as a JSON-able dict."""
        return asdict(self)


def fio_json(text: str) -> dict[str, Any]:
    """fio's JSON document; fio may print notes before it, which are skipped."""
    start = text.find("{")
    if start < 0:
        raise ValueError("fio printed no JSON")
    document: dict[str, Any] = json.loads(text[start:])
    return document


def parse_figures(document: Mapping[str, Any]) -> Figures:
    """Bandwidth, IOPS and latency summed (or weighted) over every job of fio's JSON."""
    jobs = document.get("jobs") or []
    if not jobs:
        raise ValueError("fio's JSON has no jobs")
    sides = [job[side] for job in jobs for side in ("read", "write")]
    done = [s for s in sides if s.get("total_ios")]
    ios = sum(s["total_ios"] for s in done)
    mean_ns = sum(s["lat_ns"]["mean"] * s["total_ios"] for s in done) / ios if ios else 0.0
    p99_ns = max((_p99(s) for s in done), default=0.0)
    return Figures(
        read_mb_s=round(sum(job["read"]["bw_bytes"] for job in jobs) / MB, 2),
        write_mb_s=round(sum(job["write"]["bw_bytes"] for job in jobs) / MB, 2),
        read_iops=round(sum(job["read"]["iops"] for job in jobs), 1),
        write_iops=round(sum(job["write"]["iops"] for job in jobs), 1),
        lat_mean_us=round(mean_ns / 1000, 1),
        lat_p99_us=round(p99_ns / 1000, 1),
    )


def _p99(side: Mapping[str, Any]) -> float:
    """The 99th percentile completion latency in ns (0 when fio did not report it)."""
    percentiles = side.get("clat_ns", {}).get("percentile", {})
    return float(percentiles.get("99.000000", 0.0))


def parse_version(text: str) -> str:
    """ "fio-3.33" from `fio --version` (or the JSON's "fio version")."""
    return text.strip().splitlines()[0].strip() if text.strip() else ""


def arc_warning(size_bytes: int, arc_max: int | None) -> str:
    """Why the figures may be the ARC's rather than the disks' ("" when the test is larger)."""
    if not arc_max or size_bytes >= arc_max:
        return ""
    return (
        f"The test size ({format_bytes(size_bytes)}) is smaller than the ARC "
        f"({format_bytes(arc_max)}): reads are served from RAM, so these figures measure "
        f"the cache, not the disks. Use a size above {format_bytes(arc_max)} to measure the disks."
    )


def unknown_profiles(names: Sequence[str]) -> list[str]:
    """The names that are not standard profiles."""
    return [name for name in names if name not in PROFILES]


def run_fio(argv: Sequence[str], limit_seconds: float, poll: Callable[[], None]) -> str:
    """Run fio and return its stdout; `poll()` is called while it runs and may raise to stop it.

    Whatever stops the wait (a cancel raised by `poll`, `limit_seconds` passing) stops fio too.
    """
    deadline = time.monotonic() + limit_seconds
    proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while True:
            try:
                out, err = proc.communicate(timeout=POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() > deadline:
                    raise FioError(f"fio did not finish within {limit_seconds:.0f} s") from None
                poll()
    finally:
        _stop(proc)
    if proc.returncode != 0:
        raise FioError(f"fio failed (exit {proc.returncode}): {(err or out).strip()[-500:]}")
    return out


def _stop(proc: subprocess.Popen[str]) -> None:
    """Terminate fio if it still runs, killing it when it does not exit in time."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


ZVOL_DEVICE_WAIT = 30.0  # seconds for udev to create a new zvol's device node


# Called with (percent, message) while fio runs; may raise to stop it (a job's cancel).
Report = Callable[[int, str], None]


def fio_target(
    engine: ZfsEngine, kind: str, name: str, size_bytes: int, job_id: int, created: list[str]
) -> Target:
    """Create the scratch file system or zvol fio writes to; `created` learns it at once."""
    marked = {scratch.PROPERTY: str(job_id)}
    if kind == "zvol":
        volsize = -(-size_bytes // copying.CHUNK) * copying.CHUNK  # whole MiB: any volblocksize
        engine.create_zvol(name, size=volsize, sparse=True, properties=marked)
        created.append(name)
        path = zvol_device(engine, name)
        return Target(path, size_bytes, direct=path.is_block_device())
    # A child inherits the dataset's compression, recordsize and dedup: what fio measures.
    engine.create_dataset(name, properties=marked)
    created.append(name)
    mountpoint = engine.get_dataset(name).mountpoint or ""
    return Target(Path(mountpoint) / "fio.dat", size_bytes, direct=False)


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
    target: Target, names: Sequence[str], runtime: int, report: Report
) -> list[dict[str, Any]]:
    """Lay the test file out once, then run each profile; figures per profile."""
    report(3, "Writing the test data once (reads need real blocks)")
    prefill = prefill_argv(target)
    limit = run_limit(None, target.size_bytes)
    run_fio(prefill, limit, lambda: report(3, "Writing the test data"))
    results = []
    for index, key in enumerate(names):
        percent = 5 + 95 * index // len(names)
        report(percent, f"{key} ({index + 1} of {len(names)})")
        results.append(run_profile(PROFILES[key], target, runtime, percent, report))
    return results


def run_profile(
    profile: Profile,
    target: Target,
    runtime: int,
    percent: int,
    report: Report,
) -> dict[str, Any]:
    """One profile's figures, with the arguments it ran with (so runs can be compared)."""
    argv = fio_argv(profile, target, runtime)
    message = f"{profile.label}: running for {runtime} s"
    limit = run_limit(runtime, target.size_bytes)
    out = run_fio(argv, limit, lambda: report(percent, message))
    figures = parse_figures(fio_json(out))
    return {"name": profile.name, "label": profile.label, **figures.as_dict(), "argv": argv[1:]}

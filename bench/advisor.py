#!/usr/bin/env python3
"""The advisor against `zdb -S` on the same pool: wall time, peak memory, dedup ratio; and the
advisor's read rate against a plain sequential read of the same data (each cold, in a child).

    (in the VM) scripts/zfsvm.sh run python3 bench/advisor.py --disk /dev/vdb
    python3 bench/advisor.py --pool tank --dataset tank/data     # an existing pool, as root

Targets: ratio within 3% of zdb -S, at most 1/10 of its peak memory, at least 0.8 of the plain
read's throughput. Prints figures and whether each target is met; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.estimate.dedup import DEFAULT_CAP

MIB = 1 << 20
FILE_MIB = 16
RECORD = 128 * 1024
READ_CHUNK = 4 * MIB  # the plain read uses the advisor's chunk size
TARGET_RATIO, TARGET_MEMORY, TARGET_READ = 0.03, 0.1, 0.8
KEPT_BYTES = 110  # a kept hash in the advisor: dict slot, int key, int value
POLL = 0.01  # seconds between reads of a child's VmHWM (a high-water mark: none is lost)


@dataclass(frozen=True)
class Measured:
    """One child process: wall seconds, peak RSS in bytes, what it printed."""

    seconds: float
    peak_rss: int
    output: str


def measure(argv: list[str]) -> Measured:
    """Run `argv` as a child, polling its peak RSS (VmHWM) until it exits.

    Neither wait4's ru_maxrss nor RUSAGE_CHILDREN will do: both count the parent's memory the
    child had before exec, so every child would look as big as this process.
    """
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        child = subprocess.Popen(argv, stdout=out, text=True)
        peak = 0
        while child.poll() is None:
            peak = max(peak, high_water(child.pid))
            time.sleep(POLL)
        seconds = time.perf_counter() - started
        out.seek(0)
        output = out.read()
    if child.returncode:
        raise SystemExit(f"{argv[:3]} failed with exit status {child.returncode}")
    return Measured(seconds, peak, output)


def high_water(pid: int) -> int:
    """Peak resident bytes of a live process (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def populate(root: Path, size_mib: int, text_mib: int) -> None:
    """Random files of FILE_MIB, a third of them copies of others; a text file written twice."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "vm"))
    from datakinds import generate

    count = max(2, size_mib // FILE_MIB)
    unique = max(1, count * 2 // 3)
    rng = random.Random(1)  # noqa: S311  (test data, the same every run)
    for index in range(count):
        source = index if index < unique else rng.randrange(unique)
        data = random.Random(source).randbytes(FILE_MIB * MIB)  # noqa: S311
        (root / f"r{index:03d}").write_bytes(data)
    if text_mib:
        text = generate("text", text_mib * MIB, 3)
        (root / "log-a.txt").write_bytes(text)
        (root / "log-b.txt").write_bytes(text)


def zpool(*args: str) -> None:
    """A zpool command that must work."""
    subprocess.run(["zpool", *args], check=True, capture_output=True, timeout=600)


def make_pool(pool: str, dataset: str, disk: str, args: argparse.Namespace) -> Measured:
    """A one-disk pool (ashift 12) with the data written and synced; zdb -S while it was empty."""
    zpool("create", "-f", "-o", "ashift=12", "-O", f"compression={args.compression}", pool, disk)
    subprocess.run(["zfs", "create", "-o", f"recordsize={args.recordsize}", dataset], check=True)
    zpool("sync", pool)
    empty = measure(["zdb", "-S", pool])
    populate(Path(f"/{dataset}"), args.size_mib, args.text_mib)
    zpool("sync", pool)
    return empty


def cold(pool: str) -> None:
    """Empty the caches: export and import drop the pool's data from the ARC."""
    os.sync()
    zpool("export", pool)
    Path("/proc/sys/vm/drop_caches").write_text("3\n")
    zpool("import", pool)


def plain_read(root: str) -> None:
    """Child: read every file under `root` sequentially in big chunks, print the byte count."""
    buffer, total = bytearray(READ_CHUNK), 0
    for folder, _dirs, files in os.walk(root):
        for name in sorted(files):
            with open(os.path.join(folder, name), "rb", buffering=0) as handle:
                while got := handle.readinto(buffer):
                    total += got
    print(total)


def child_estimate(root: str, args: argparse.Namespace) -> None:
    """Child: the advisor's estimate on a dataset's mountpoint, printed as JSON."""
    from advisor.estimate.run import estimate
    from advisor.estimate.sources import Input

    result = estimate(
        Input("dataset", root, Path(root), args.recordsize, 4096),
        sample_bytes=args.sample_mib * MIB,
        time_budget=3600.0,
        algorithms=tuple(args.algorithms.split(",")),
        dedup_compression=args.compression,
        ram_total=os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
        arc_max=None,
        core_bytes_per_entry=None,
    )
    print(json.dumps(result))


def zdb_ratio(text: str) -> tuple[float, int]:
    """(dedup ratio, unique blocks) from zdb -S's output."""
    from storage.zfs.parse.ddt import parse_zdb_simulation

    simulation = parse_zdb_simulation(text)
    return simulation.dedup, simulation.entries


def run_bench(pool: str, dataset: str, args: argparse.Namespace, empty: Measured | None) -> None:
    """Measure the plain read, the advisor and zdb -S, each from cold caches; print figures."""
    root = f"/{dataset}"
    me = [sys.executable, str(Path(__file__).resolve())]
    cold(pool)
    plain = measure([*me, "--child-read", root])
    read_bytes = int(plain.output)
    cold(pool)
    options = ["--compression", args.compression, "--sample-mib", str(args.sample_mib),
               "--recordsize", str(args.recordsize), "--algorithms", args.algorithms]  # fmt: skip
    advisor = measure([*me, "--child-estimate", root, *options])
    result: dict[str, Any] = json.loads(advisor.output)
    cold(pool)
    zdb = measure(["zdb", "-S", pool])
    report(read_bytes, plain, advisor, result, zdb)
    if empty:
        project_memory(advisor, result, zdb, empty)


def report(
    read_bytes: int, plain: Measured, advisor: Measured, result: dict[str, Any], zdb: Measured
) -> None:
    """Print the figures and the three targets."""
    dedup = result["dedup"]
    zdb_dedup, zdb_unique = zdb_ratio(zdb.output)
    plain_rate = read_bytes / plain.seconds / 1e6
    print(f"data: {read_bytes / MIB:.0f} MiB in {result['input']['files']} files, "
          f"{result['input']['blocks']} blocks of {result['input']['block_size']} B")  # fmt: skip
    print(f"plain read : {plain.seconds:7.2f} s  {plain_rate:8.1f} MB/s  "
          f"peak RSS {plain.peak_rss / MIB:7.1f} MiB")  # fmt: skip
    print(f"advisor    : {advisor.seconds:7.2f} s  peak RSS {advisor.peak_rss / MIB:7.1f} MiB  "
          f"dedup {dedup['ratio']:.3f}  unique {dedup['unique_blocks']}  "
          f"read {dedup['read_mb_s']} MB/s in its pass ({dedup.get('hash')})")  # fmt: skip
    print(f"zdb -S     : {zdb.seconds:7.2f} s  peak RSS {zdb.peak_rss / MIB:7.1f} MiB  "
          f"dedup {zdb_dedup:.2f}  unique {zdb_unique}")  # fmt: skip
    ratio_diff = dedup["ratio"] / zdb_dedup - 1 if zdb_dedup else float("inf")
    memory = advisor.peak_rss / zdb.peak_rss
    reading = dedup["read_mb_s"] / plain_rate if plain_rate else 0.0
    print(f"target ratio within 3% of zdb -S : {ratio_diff:+.2%}  "
          f"{'met' if abs(ratio_diff) <= TARGET_RATIO else 'NOT met'}")  # fmt: skip
    print(f"target memory <= 1/10 of zdb -S  : {memory:.2f}x  "
          f"{'met' if memory <= TARGET_MEMORY else 'NOT met'}")  # fmt: skip
    print(f"target read >= 0.8 of plain read : {reading:.2f}x  "
          f"{'met' if reading >= TARGET_READ else 'NOT met'}")  # fmt: skip


def project_memory(
    advisor: Measured, result: dict[str, Any], zdb: Measured, empty: Measured
) -> None:
    """zdb -S's memory on the empty pool and with data, against the advisor's bounded peak."""
    # The advisor's kept set grows to its cap and no further (~110 B per kept hash).
    kept = result["dedup"]["kept_hashes"]
    bound = advisor.peak_rss + max(0, DEFAULT_CAP - kept) * KEPT_BYTES
    print(f"memory: zdb -S {empty.peak_rss / MIB:.1f} MiB on the empty pool, "
          f"{zdb.peak_rss / MIB:.1f} MiB with the data; the advisor {advisor.peak_rss / MIB:.1f} "
          f"MiB with {kept} kept hashes, at most ~{bound / MIB:.0f} MiB at any size "
          f"(hash cap {DEFAULT_CAP})")  # fmt: skip


def main() -> None:
    """Parse arguments; run a child's job or the whole bench."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--disk", help="create a pool on this blank disk and fill it first")
    parser.add_argument("--pool", default="advbench")
    parser.add_argument("--dataset", help="the dataset to read (default POOL/data)")
    parser.add_argument("--size-mib", type=int, default=256, help="random data written")
    parser.add_argument("--text-mib", type=int, default=8, help="text written twice")
    parser.add_argument("--compression", default="lz4")
    parser.add_argument("--recordsize", type=int, default=RECORD)
    parser.add_argument("--sample-mib", type=int, default=8)
    parser.add_argument("--algorithms", default="lz4,zstd-3")
    parser.add_argument("--keep", action="store_true", help="keep the pool made with --disk")
    parser.add_argument("--child-read", help=argparse.SUPPRESS)
    parser.add_argument("--child-estimate", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_read:
        plain_read(args.child_read)
    elif args.child_estimate:
        child_estimate(args.child_estimate, args)
    else:
        bench(args)


def bench(args: argparse.Namespace) -> None:
    """Make the pool if asked, run the bench, destroy the pool made here."""
    dataset = args.dataset or f"{args.pool}/data"
    empty = None
    if args.disk:
        started = time.perf_counter()
        empty = make_pool(args.pool, dataset, args.disk, args)
        print(f"pool {args.pool} on {args.disk} filled in {time.perf_counter() - started:.1f} s")
    try:
        run_bench(args.pool, dataset, args, empty)
    finally:
        if args.disk and not args.keep:
            subprocess.run(["zpool", "destroy", "-f", args.pool], check=False, timeout=120)


if __name__ == "__main__":
    main()

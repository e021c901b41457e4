#!/usr/bin/env python3
"""The advisor against `zdb -S` on the same pool: wall time, peak memory, dedup ratio; and the
advisor's read rate against a plain sequential read of the same data (each cold, in a child).

    (in the VM) scripts/zfsvm.sh run python3 bench/advisor.py --disk /dev/vdb
    python3 bench/advisor.py --pool tank --dataset tank/data     # an existing pool, as root

Targets: ratio within 3% of zdb -S, at most 1/10 of its peak memory, at least 0.8 of the plain
read's throughput. Prints figures and whether each target is met; asserts nothing about time.

With --disk it also measures how both scale (--scale-mib, one fresh pool per size): unique
incompressible data (os.urandom) in small records (--scale-recordsize, 4K), so that a 1-4 GiB VM
disk holds 10^4..10^6 unique blocks, with 1/8 of its files written twice for a ratio to check.
zdb -S keeps one entry per unique block, the advisor at most its hash cap: the bench prints
zdb's RSS growth per unique block and the projected count of unique blocks (and the data at
128K records) past which the advisor takes at most 1/10 of zdb -S's memory. --compare-cap runs
the advisor once more with a smaller hash cap, for its memory and its error.
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

from advisor.estimates.engine.dedup import DEFAULT_CAP

MIB = 1 << 20
FILE_MIB = 16
RECORD = 128 * 1024
READ_CHUNK = 4 * MIB  # the plain read uses the advisor's chunk size
TARGET_RATIO, TARGET_MEMORY, TARGET_READ = 0.03, 0.1, 0.8
KEPT_BYTES = 110  # a kept hash in the advisor: dict slot, int key, int value
SCALE_RECORD = 4096
DUP_EVERY = 8  # in the scaling data, every 8th unique file is written twice
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


def populate_unique(root: Path, size_mib: int) -> None:
    """Incompressible unique files of FILE_MIB (os.urandom); every DUP_EVERY-th written twice."""
    for index in range(max(1, size_mib // FILE_MIB)):
        data = os.urandom(FILE_MIB * MIB)
        (root / f"u{index:04d}").write_bytes(data)
        if index % DUP_EVERY == 0:
            (root / f"u{index:04d}.copy").write_bytes(data)


def zpool(*args: str) -> None:
    """A zpool command that must work."""
    subprocess.run(["zpool", *args], check=True, capture_output=True, timeout=600)


def make_pool(
    pool: str, dataset: str, disk: str, args: argparse.Namespace, scale_mib: int = 0
) -> Measured:
    """A one-disk pool (ashift 12) with the data written and synced; zdb -S while it was empty.

    The mixed data of --size-mib in --recordsize records, or with `scale_mib` that much unique
    data in --scale-recordsize records.
    """
    record = args.scale_recordsize if scale_mib else args.recordsize
    zpool("create", "-f", "-o", "ashift=12", "-O", f"compression={args.compression}", pool, disk)
    subprocess.run(["zfs", "create", "-o", f"recordsize={record}", dataset], check=True)
    zpool("sync", pool)
    empty = measure(["zdb", "-S", pool])
    if scale_mib:
        populate_unique(Path(f"/{dataset}"), scale_mib)
    else:
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
    from advisor.estimates.engine.run import estimate
    from advisor.estimates.engine.sources import Input

    result = estimate(
        Input("dataset", root, Path(root), args.recordsize, 4096),
        hash_cap=args.hash_cap,
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


@dataclass(frozen=True)
class Run:
    """One size measured: the plain read, the advisor (and its result), zdb -S."""

    read_bytes: int
    plain: Measured
    advisor: Measured
    result: dict[str, Any]
    zdb: Measured
    other_cap: tuple[Measured, dict[str, Any]] | None = None

    @property
    def unique(self) -> int:
        """zdb -S's count of unique blocks (exact)."""
        return zdb_ratio(self.zdb.output)[1]


def run_bench(
    pool: str, dataset: str, args: argparse.Namespace, empty: Measured | None, record: int
) -> Run:
    """Measure the plain read, the advisor and zdb -S, each from cold caches; print figures."""
    root = f"/{dataset}"
    me = [sys.executable, str(Path(__file__).resolve())]
    cold(pool)
    plain = measure([*me, "--child-read", root])
    read_bytes = int(plain.output)
    options = ["--compression", args.compression, "--sample-mib", str(args.sample_mib),
               "--recordsize", str(record), "--algorithms", args.algorithms]  # fmt: skip
    cold(pool)
    advisor = measure([*me, "--child-estimate", root, *options, "--hash-cap", str(args.hash_cap)])
    other_cap = None
    if args.compare_cap:
        cold(pool)
        other = measure([*me, "--child-estimate", root, *options,
                         "--hash-cap", str(args.compare_cap)])  # fmt: skip
        other_cap = (other, json.loads(other.output))
    cold(pool)
    zdb = measure(["zdb", "-S", pool])
    run = Run(read_bytes, plain, advisor, json.loads(advisor.output), zdb, other_cap)
    report(run, args)
    if empty:
        project_memory(run, empty, args.hash_cap)
    return run


def report(run: Run, args: argparse.Namespace) -> None:
    """Print the figures and the three targets."""
    result, plain, advisor, zdb = run.result, run.plain, run.advisor, run.zdb
    dedup = result["dedup"]
    zdb_dedup, zdb_unique = zdb_ratio(zdb.output)
    plain_rate = run.read_bytes / plain.seconds / 1e6
    print(f"data: {run.read_bytes / MIB:.0f} MiB in {result['input']['files']} files, "
          f"{result['input']['blocks']} blocks of {result['input']['block_size']} B")  # fmt: skip
    print(f"plain read : {plain.seconds:7.2f} s  {plain_rate:8.1f} MB/s  "
          f"peak RSS {plain.peak_rss / MIB:7.1f} MiB")  # fmt: skip
    print(f"advisor    : {advisor.seconds:7.2f} s  peak RSS {advisor.peak_rss / MIB:7.1f} MiB  "
          f"dedup {dedup['ratio']:.3f}  unique {dedup['unique_blocks']}  "
          f"read {dedup['read_mb_s']} MB/s in its pass ({dedup.get('hash')}; "
          f"cap {args.hash_cap}, kept {dedup['kept_hashes']}, 1/{round(1 / dedup['fraction'])} "
          "of the hash space)")  # fmt: skip
    print(f"zdb -S     : {zdb.seconds:7.2f} s  peak RSS {zdb.peak_rss / MIB:7.1f} MiB  "
          f"dedup {zdb_dedup:.2f}  unique {zdb_unique}")  # fmt: skip
    ratio_diff = dedup["ratio"] / zdb_dedup - 1 if zdb_dedup else float("inf")
    memory = advisor.peak_rss / zdb.peak_rss
    reading = dedup["read_mb_s"] / plain_rate if plain_rate else 0.0
    print(f"target ratio within 3% of zdb -S : {ratio_diff:+.2%}  "
          f"{'met' if abs(ratio_diff) <= TARGET_RATIO else 'NOT met'}  "
          f"(unique blocks {dedup['unique_blocks'] / zdb_unique - 1:+.2%} of zdb's)")  # fmt: skip
    print(f"target memory <= 1/10 of zdb -S  : {memory:.2f}x  "
          f"{'met' if memory <= TARGET_MEMORY else 'NOT met'}")  # fmt: skip
    print(f"target read >= 0.8 of plain read : {reading:.2f}x  "
          f"{'met' if reading >= TARGET_READ else 'NOT met'}")  # fmt: skip
    if run.other_cap:
        other, got = run.other_cap
        odedup = got["dedup"]
        print(f"advisor, hash cap {args.compare_cap}: {other.seconds:7.2f} s  peak RSS "
              f"{other.peak_rss / MIB:.1f} MiB ({(other.peak_rss - advisor.peak_rss) / MIB:+.1f})"
              f"  dedup {odedup['ratio']:.3f} ({odedup['ratio'] / zdb_dedup - 1:+.2%} of zdb's)"
              f"  unique {odedup['unique_blocks']} "
              f"({odedup['unique_blocks'] / zdb_unique - 1:+.2%} of zdb's)  "
              f"read {odedup['read_mb_s']} MB/s")  # fmt: skip


def project_memory(run: Run, empty: Measured, cap: int) -> None:
    """zdb -S's memory on the empty pool and with data, against the advisor's bounded peak."""
    kept = run.result["dedup"]["kept_hashes"]
    print(f"memory: zdb -S {empty.peak_rss / MIB:.1f} MiB on the empty pool, "
          f"{run.zdb.peak_rss / MIB:.1f} MiB with the data; the advisor "
          f"{run.advisor.peak_rss / MIB:.1f} MiB with {kept} kept hashes, at most "
          f"~{advisor_bound(run, cap) / MIB:.0f} MiB at any size (hash cap {cap})")  # fmt: skip


def advisor_bound(run: Run, cap: int) -> int:
    """The advisor's peak RSS at any size: measured, plus the hashes it may still keep.

    The kept set grows to its cap and no further (~110 B per kept hash): once it has been
    halved (it keeps part of the hash space) the measured peak already holds a full set.
    """
    dedup = run.result["dedup"]
    missing = 0 if dedup["fraction"] < 1 else max(0, cap - dedup["kept_hashes"])
    return run.advisor.peak_rss + missing * KEPT_BYTES


def report_scaling(runs: list[Run], empty: Measured, cap: int) -> None:
    """How both scale: zdb -S per unique block against the advisor's bound; the crossover."""
    print("\n=== scaling: advisor vs zdb -S by unique blocks ===")
    print(f"zdb -S on the empty pool: peak RSS {empty.peak_rss / MIB:.1f} MiB")
    print(f"{'unique blocks':>13}  {'data MiB':>8}  {'advisor MiB':>11}  {'zdb -S MiB':>10}  "
          f"{'adv/zdb':>7}  {'zdb B/block':>11}  {'adv read/plain':>14}  ratio vs zdb")  # fmt: skip
    previous: Run | None = None
    for run in runs:
        zdb_dedup = zdb_ratio(run.zdb.output)[0]
        dedup = run.result["dedup"]
        plain_rate = run.read_bytes / run.plain.seconds / 1e6
        slope = ""
        if previous and run.unique != previous.unique:
            growth = (run.zdb.peak_rss - previous.zdb.peak_rss) / (run.unique - previous.unique)
            slope = f"{growth:.0f}"
        print(f"{run.unique:>13}  {run.read_bytes / MIB:>8.0f}  "
              f"{run.advisor.peak_rss / MIB:>11.1f}  {run.zdb.peak_rss / MIB:>10.1f}  "
              f"{run.advisor.peak_rss / run.zdb.peak_rss:>7.2f}  {slope:>11}  "
              f"{dedup['read_mb_s'] / plain_rate:>14.2f}  "
              f"{dedup['ratio'] / zdb_dedup - 1:+.2%}")  # fmt: skip
        previous = run
    if len(runs) < 2:
        return
    small, big = runs[0], runs[-1]
    growth = (big.zdb.peak_rss - small.zdb.peak_rss) / (big.unique - small.unique)
    fixed = big.zdb.peak_rss - growth * big.unique  # zdb -S's line through the two sizes
    bound = max(advisor_bound(run, cap) for run in runs)
    print(f"advisor peak RSS: {' / '.join(f'{r.advisor.peak_rss / MIB:.1f}' for r in runs)} MiB "
          f"at {' / '.join(str(r.unique) for r in runs)} unique blocks: bounded by its hash cap "
          f"{cap}, taken as {bound / MIB:.1f} MiB at any size")  # fmt: skip
    print(f"zdb -S: {fixed / MIB:.1f} MiB + {growth:.0f} B per unique block "
          f"(slope from {small.unique} to {big.unique} blocks)")  # fmt: skip
    if growth <= 0:
        print("zdb -S did not grow with the data: no crossover to project")
        return
    crossover = max(0.0, (bound / TARGET_MEMORY - fixed) / growth)
    print(f"advisor <= 1/10 of zdb -S from ~{crossover / 1e6:.1f} M unique blocks on: "
          f"{crossover * RECORD / 2**40:.2f} TiB of unique data at 128K records "
          f"({crossover * SCALE_RECORD / 2**30:.1f} GiB at 4K); zdb -S then "
          f"{bound / TARGET_MEMORY / 2**30:.2f} GiB")  # fmt: skip


def main() -> None:
    """Parse arguments; run a child's job or the whole bench."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--disk", help="create a pool on this blank disk and fill it first")
    parser.add_argument("--pool", default="advbench")
    parser.add_argument("--dataset", help="the dataset to read (default POOL/data)")
    parser.add_argument("--size-mib", type=int, default=256,
                        help="random data written (0: no mixed run)")  # fmt: skip
    parser.add_argument("--text-mib", type=int, default=8, help="text written twice")
    parser.add_argument("--compression", default="lz4")
    parser.add_argument("--recordsize", type=int, default=RECORD)
    parser.add_argument("--sample-mib", type=int, default=8)
    parser.add_argument("--algorithms", default="lz4,zstd-3")
    parser.add_argument(
        "--scale-mib",
        default="64,512",
        help="with --disk: sizes of unique data, comma-separated ('': none)",
    )
    parser.add_argument("--scale-recordsize", type=int, default=SCALE_RECORD)
    parser.add_argument("--hash-cap", type=int, default=DEFAULT_CAP)
    parser.add_argument(
        "--compare-cap",
        type=int,
        default=0,
        help="run the advisor again with this hash cap (0: not)",
    )
    parser.add_argument("--keep", action="store_true",
                        help="keep the last pool made with --disk")  # fmt: skip
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
    """Without --disk: the bench on an existing pool; with it: a pool per size, destroyed after."""
    dataset = args.dataset or f"{args.pool}/data"
    if not args.disk:
        run_bench(args.pool, dataset, args, None, args.recordsize)
        return
    sizes = [int(size) for size in args.scale_mib.split(",") if size]
    jobs = ([0] if args.size_mib else []) + sizes
    runs: list[Run] = []
    empty = None
    for index, scale in enumerate(jobs):
        record = args.scale_recordsize if scale else args.recordsize
        what = f"{scale} MiB unique in {record} B records" if scale else "mixed data"
        print(f"\n=== {what} ===", flush=True)
        started = time.perf_counter()
        empty_now = make_pool(args.pool, dataset, args.disk, args, scale)
        empty = empty or empty_now
        print(f"pool {args.pool} on {args.disk} filled in {time.perf_counter() - started:.1f} s")
        try:
            run = run_bench(args.pool, dataset, args, empty_now, record)
            if scale:
                runs.append(run)
        finally:
            if not (args.keep and index == len(jobs) - 1):
                subprocess.run(["zpool", "destroy", "-f", args.pool], check=False, timeout=120)
        sys.stdout.flush()
    if runs and empty:
        report_scaling(runs, empty, args.hash_cap)


if __name__ == "__main__":
    main()

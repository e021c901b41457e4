"""The advisor's estimates against what real OpenZFS stores: compression per kind and dedup.

Compression is held to 3% of two figures: the written file's data blocks (lsize / psize of its
L0 block pointers, read by zdb: exact) and the logicalreferenced / referenced the write added
to its dataset (compressratio's own terms, the file's metadata included). compressratio itself
is printed too: with two decimals and the empty file system's metadata in it, it sits ~3%
under the data's ratio on files this small. Dedup is held to 3% of zdb -S on a pool of its own.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from datakinds import KINDS, generate
from vmhelpers import OUT, sync_pool

from advisor.estimates.engine.run import estimate
from advisor.estimates.engine.sources import Input
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

MIB = 1 << 20
RECORD = 128 * 1024
SIZE = 4 * MIB  # per kind: kept small, gzip-9 and zstd-19 crawl under TCG
SAMPLE = 2 * MIB  # half of it: the sample is smaller than the data
ALGORITHMS = ("lz4", "gzip-1", "gzip-6", "gzip-9", "zstd-1", "zstd-3", "zstd-19")
TOLERANCE = 0.03
# zdb -ddddd lists every block pointer of an object: "0  L0 0:1c000:8000 20000L/8000P F=1 ..."
L0_SIZES = re.compile(r"^\s*[0-9a-f]+\s+L0\s.*?\b([0-9a-f]+)L/([0-9a-f]+)P", re.MULTILINE)
DATASET = re.compile(r"^Dataset (\S+) \[")
# "         2    2   128K   128K  1.00M     512  4.00M  100.00  ZFS plain file"
OBJECT = re.compile(r"^\s+\d+\s+\d+(?:\s+\S+){5}\s+[\d.]+\s+(\S.*?)\s*$")


def advise(path: Path, kind: str = "path", **options: Any) -> dict[str, Any]:
    """The advisor's estimate on `path`, 128K records on 4K sectors, with a loose time budget."""
    return estimate(
        Input(kind, str(path), path, RECORD, 4096),
        sample_bytes=options.pop("sample_bytes", SAMPLE),
        time_budget=600.0,
        ram_total=3 << 30,
        arc_max=None,
        core_bytes_per_entry=None,
        **options,
    )


def zfs_bytes(engine: CliZfsEngine, dataset: str) -> tuple[int, int, float]:
    """(logicalreferenced, referenced, compressratio) of a dataset, exact."""
    got = engine.get_properties(dataset, ("logicalreferenced", "referenced", "compressratio"))
    ratio = float(str(got["compressratio"].value).rstrip("x"))
    return int(got["logicalreferenced"].value), int(got["referenced"].value), ratio


def zdb_dump(*target: str) -> str:
    """`zdb -ddddd`: objects with every block pointer."""
    return subprocess.run(["zdb", "-ddddd", *target], capture_output=True, text=True,
                          check=True, timeout=600).stdout  # fmt: skip


def ratio_of(sizes: list[tuple[int, int]]) -> float:
    """Σ lsize / Σ psize."""
    return sum(lsize for lsize, _ in sizes) / sum(psize for _, psize in sizes)


def data_block_ratio(dataset: str, path: Path) -> float:
    """lsize / psize summed over one file's data (L0) blocks, read from the pool by zdb."""
    text = zdb_dump(dataset, str(os.stat(path).st_ino))
    sizes = [(int(lsize, 16), int(psize, 16)) for lsize, psize in L0_SIZES.findall(text)]
    assert sizes, text[-2000:]
    return ratio_of(sizes)


def l0_ratio(dumped: dict[str, list[tuple[int, int]]], dataset: str) -> float:
    """The data ratio of a dataset's file: from the pool's dump, else from its own."""
    if dataset in dumped:
        return ratio_of(dumped[dataset])
    return data_block_ratio(dataset, Path(f"/{dataset}/data"))


def plain_file_blocks(text: str) -> dict[str, list[tuple[int, int]]]:
    """(lsize, psize) of the L0 blocks of plain files, by dataset, from one whole-pool dump."""
    found: dict[str, list[tuple[int, int]]] = {}
    dataset, plain = "", False
    for line in text.splitlines():
        if match := DATASET.match(line):
            dataset, plain = match[1], False
        elif match := OBJECT.match(line):
            plain = match[1] == "ZFS plain file"
        elif plain and (match := L0_SIZES.match(line)):
            found.setdefault(dataset, []).append((int(match[1], 16), int(match[2], 16)))
    return found


@pytest.fixture(scope="module")
def written(
    module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine
) -> dict[tuple[str, str], dict[str, float]]:
    """Each kind written with each algorithm on a one-disk pool; ZFS's figures for each."""
    pool = module_pool("advpool", PoolLayout.single("stripe", all_disks[0:1]))
    started = time.monotonic()
    before: dict[str, tuple[int, int, float]] = {}
    for kind in KINDS:
        for algo in ALGORITHMS:
            name = f"{pool}/{kind}-{algo}"
            engine.create_dataset(name, properties={"compression": algo, "recordsize": "131072"})
            before[name] = zfs_bytes(engine, name)
            Path(f"/{name}/data").write_bytes(generate(kind, SIZE, 7))
    sync_pool(engine, pool)
    written_at = time.monotonic()
    # One dump of the whole pool; a dataset it did not show is asked for on its own.
    dumped = plain_file_blocks(zdb_dump(pool))
    figures = {}
    for kind in KINDS:
        for algo in ALGORITHMS:
            name = f"{pool}/{kind}-{algo}"
            lref, ref, ratio = zfs_bytes(engine, name)
            figures[(kind, algo)] = {
                "compressratio": ratio,
                "referenced_ratio": (lref - before[name][0]) / (ref - before[name][1]),
                "data_ratio": l0_ratio(dumped, name),
            }
    took = time.monotonic() - written_at
    print(f"\nwritten in {written_at - started:.0f} s, read back by zdb in {took:.0f} s "
          f"({len(dumped)} datasets in one dump)")  # fmt: skip
    return figures


def test_projected_compression_matches_what_zfs_stores(
    written: dict[tuple[str, str], dict[str, float]], tmp_path: Path
) -> None:
    rows, misses = [], []
    for kind in KINDS:
        source = tmp_path / kind
        source.write_bytes(generate(kind, SIZE, 7))
        result = advise(source, algorithms=ALGORITHMS)
        assert result["sample"]["blocks"] < result["input"]["blocks"]
        for row in result["compression"][1:]:
            zfs = written[(kind, row["algorithm"])]
            diff = row["ratio"] / zfs["data_ratio"] - 1
            rows.append((kind, row, zfs, diff))
            # Against the data blocks, and against the dataset's own space accounting
            # (logicalreferenced / referenced added by the write: metadata included).
            for figure in ("data_ratio", "referenced_ratio"):
                if abs(row["ratio"] / zfs[figure] - 1) > TOLERANCE:
                    misses.append((kind, row["algorithm"], row["ratio"], figure, zfs[figure]))
    _print_compression(rows)
    assert not misses, misses


def _print_compression(rows: list[tuple[str, dict[str, Any], dict[str, float], float]]) -> None:
    """The table: advisor against ZFS's data blocks, with compressratio for reference."""
    print(f"\n{'kind':<11}{'algorithm':<9}{'advisor':>9}{'95% interval':>17}{'zfs L0':>9}"
          f"{'diff':>8}{'compressratio':>15}{'lref/ref':>10}")  # fmt: skip
    for kind, row, zfs, diff in rows:
        interval = f"{row['ratio_low']:.3f}-{row['ratio_high']:.3f}"
        print(f"{kind:<11}{row['algorithm']:<9}{row['ratio']:>9.3f}{interval:>17}"
              f"{zfs['data_ratio']:>9.3f}{diff:>+8.1%}{zfs['compressratio']:>15.2f}"
              f"{zfs['referenced_ratio']:>10.3f}")  # fmt: skip
    _save("advisor_compression.json", [
        {"kind": k, "algorithm": r["algorithm"], "advisor": r["ratio"], "zfs": z, "diff": d}
        for k, r, z, d in rows
    ])  # fmt: skip


def duplicated_set(root: Path) -> None:
    """48 distinct 128K blocks, the i-th written i % 4 + 1 times, shuffled, in two files."""
    rng = random.Random(11)
    distinct = [rng.randbytes(RECORD) for _ in range(48)]
    blocks = [block for i, block in enumerate(distinct) for _ in range(i % 4 + 1)]
    rng.shuffle(blocks)
    half = len(blocks) // 2
    (root / "one").write_bytes(b"".join(blocks[:half]))
    (root / "two").write_bytes(b"".join(blocks[half:]))


def test_dedup_ratio_matches_zdb_simulation(
    module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine
) -> None:
    pool = module_pool("advdedup", PoolLayout.single("stripe", all_disks[1:2]))
    engine.create_dataset(f"{pool}/dup", properties={"compression": "off"})
    duplicated_set(Path(f"/{pool}/dup"))
    sync_pool(engine, pool)

    zdb = engine.simulate_dedup(pool)
    result = advise(Path(f"/{pool}/dup"), "dataset", algorithms=("lz4",))
    dedup = result["dedup"]
    diff = dedup["ratio"] / zdb.dedup - 1
    print(f"\ndedup: advisor {dedup['ratio']:.3f} ({dedup['unique_blocks']} unique of "
          f"{dedup['blocks']} blocks, verdict {dedup['verdict']}), zdb -S {zdb.dedup:.2f} "
          f"({zdb.entries} entries), diff {diff:+.1%}; read {dedup['read_mb_s']} MB/s")  # fmt: skip
    _save("advisor_dedup.json", {"advisor": dedup, "zdb": zdb.dedup, "entries": zdb.entries})
    assert abs(diff) <= TOLERANCE
    assert dedup["unique_blocks"] == zdb.entries == 48


def _save(name: str, figures: object) -> None:
    """Keep figures in the run's out directory for the notes."""
    Path(OUT, name).write_text(json.dumps(figures, indent=2, default=str))

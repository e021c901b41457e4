"""The settings benchmark and fio on real OpenZFS, through the same modules the jobs run.

- Reads come from the disks: a scratch dataset made for the benchmark (primarycache=metadata)
  serves its read-back with almost no ARC data hits, while the same copy in a dataset left at
  primarycache=all is read from the ARC (the measure tells the two apart).
- The dedup row's space, from the pool's ALLOC change, shows a sample written twice at half the
  space of the same data without dedup.
- fio on a scratch zvol runs O_DIRECT on /dev/zvol with its queue depth; on a dataset, buffered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from datakinds import generate

from advisor.benchmarks.engine import copying, rows
from advisor.benchmarks.engine import fio as engine_fio
from advisor.benchmarks.engine.settings import CATALOGUE, Setting
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

MIB = 1 << 20
SIZE = 24 * MIB  # text: compressible, so each setting's space differs
JOB = 4242  # the job id the scratch names carry
ARC_HITS_FROM_DISK = 10.0  # percent: at most this share of the read-back from the ARC
ARC_HITS_CACHED = 60.0  # percent: at least this share when the data stayed in the ARC


def quiet(_: int) -> None:
    """No progress to report."""


@pytest.fixture(scope="module")
def pool(module_pool: Callable[..., str], all_disks: list[str]) -> str:
    """A one-disk pool for the scratch datasets."""
    return module_pool("benchpool", PoolLayout.single("stripe", all_disks[0:1]))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> list[copying.Piece]:
    """A directory of text written twice (two identical files): half of it is duplicates."""
    root = tmp_path_factory.mktemp("sample")
    data = generate("text", SIZE // 2, 3)
    (root / "a.txt").write_bytes(data)
    (root / "b.txt").write_bytes(data)
    return copying.plan_sample(root, SIZE)


def measure(
    engine: CliZfsEngine,
    pool: str,
    sample: list[copying.Piece],
    setting: Setting,
    created: list[str],
    *,
    from_disk: bool = True,
) -> dict[str, Any]:
    """One benchmark row, as the job measures it, in a scratch dataset `created` learns of."""
    name = f"{pool}/nasui-scratch-{JOB}-{setting.key}{'' if from_disk else '-cached'}"
    rows.create_scratch(engine, name, setting, JOB, from_disk=from_disk)
    created.append(name)
    return rows.measure_setting(engine, pool, name, setting, sample, quiet, quiet)


def test_benchmark_rows_read_from_disk_and_measure_dedup_from_alloc(
    engine: CliZfsEngine, pool: str, sample: list[copying.Piece]
) -> None:
    keys = ("off", "lz4", "dedup")
    created: list[str] = []
    try:
        measured = [measure(engine, pool, sample, CATALOGUE[key], created) for key in keys]
        cached = measure(engine, pool, sample, CATALOGUE["lz4"], created, from_disk=False)
        found = dict(zip(keys, rows.dedup_space(engine, pool, measured), strict=True))
    finally:
        rows.destroy(engine, created)
    _print(found, cached)
    assert [d.name for d in engine.list_datasets(pool)] == [pool], "scratch data stayed"

    for key, row in found.items():
        assert row["logical_bytes"] >= SIZE, key
        assert row["read_arc_hit_percent"] is not None, key
        assert row["read_arc_hit_percent"] <= ARC_HITS_FROM_DISK, (key, row)
        assert row["write_mb_s"] > 0, key
        assert row["read_mb_s"] > 0, key
    # The control: the same copy, primarycache=all, is read back from the ARC.
    assert cached["read_arc_hit_percent"] >= ARC_HITS_CACHED, cached
    # No compression stores the data as it is; lz4 on text saves space.
    assert found["off"]["ratio"] == pytest.approx(1.0, rel=0.05)
    assert found["lz4"]["ratio"] > 1.5
    # Dedup with lz4 keeps one copy of each block: half of lz4's space, give or take the table.
    assert found["dedup"]["ratio"] == pytest.approx(2 * found["lz4"]["ratio"], rel=0.15)


def _print(found: dict[str, dict[str, Any]], cached: dict[str, Any]) -> None:
    """The rows as the results page shows them, with the ARC's share of each read-back."""
    print(f"\n{'setting':<9}{'logical':>10}{'used':>10}{'ALLOC':>10}{'ratio':>7}"
          f"{'write MB/s':>11}{'read MB/s':>10}{'ARC hits':>9}")  # fmt: skip
    for key, row in [*found.items(), ("lz4 (ARC)", cached)]:
        print(f"{key:<9}{row['logical_bytes'] // 1024:>9}K{row['used_bytes'] // 1024:>9}K"
              f"{row['pool_alloc_bytes'] // 1024:>9}K{row['ratio']:>7.2f}{row['write_mb_s']:>11}"
              f"{row['read_mb_s']:>10}{row['read_arc_hit_percent']:>8}%")  # fmt: skip


def test_fio_on_a_scratch_zvol_runs_direct_with_its_queue_depth(
    engine: CliZfsEngine, pool: str
) -> None:
    created: list[str] = []
    try:
        target = engine_fio.fio_target(engine, "zvol", f"{pool}/nasui-scratch-{JOB}-fio", 32 * MIB,
                                    JOB, created)  # fmt: skip
        assert target.direct
        assert str(target.path).startswith("/dev/zvol/")
        results = _run(target, ("seq-read-1m", "rand-read-4k-qd32", "rand-write-4k-qd1"))
    finally:
        rows.destroy(engine, created)
    for result in results:
        assert "--direct=1" in result["argv"]
        assert "--ioengine=libaio" in result["argv"]
        assert max(result["read_iops"], result["write_iops"]) > 0, result
    assert "--iodepth=32" in results[1]["argv"]
    assert results[0]["read_mb_s"] > 0
    assert results[2]["write_iops"] > 0
    assert [d.name for d in engine.list_datasets(pool)] == [pool], "the scratch zvol stayed"


def test_fio_on_a_dataset_runs_buffered_in_a_scratch_child(engine: CliZfsEngine, pool: str) -> None:
    created: list[str] = []
    engine.create_dataset(f"{pool}/media", properties={"compression": "lz4"})
    try:
        name = f"{pool}/media/nasui-scratch-{JOB}-fio"
        target = engine_fio.fio_target(engine, "dataset", name, 16 * MIB, JOB, created)
        assert not target.direct
        assert target.path == Path(f"/{name}/fio.dat")
        assert engine.get_dataset(name).compression == "lz4"  # what fio measures is inherited
        (result,) = _run(target, ("rand-write-4k-qd1",))
    finally:
        rows.destroy(engine, created)
        engine.destroy_dataset(f"{pool}/media", recursive=True)
    assert "--direct=0" in result["argv"]
    assert result["write_iops"] > 0


def _run(target: Any, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """fio's profiles for 2 s each, printed."""
    started = time.monotonic()
    results = engine_fio.run_profiles(target, names, 2, lambda percent, message: None)
    print(f"\nfio on {target.path} (direct={target.direct}), {time.monotonic() - started:.0f} s:")
    for result in results:
        print(f"  {result['name']:<20} read {result['read_mb_s']:>8} MB/s {result['read_iops']:>8}"
              f" IOPS  write {result['write_mb_s']:>8} MB/s {result['write_iops']:>8} IOPS  "
              f"p99 {result['lat_p99_us']} µs")  # fmt: skip
    return results

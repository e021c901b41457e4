"""Monitoring collectors against real OpenZFS: ARC and DDT figures move when a dedup zvol fills.

Only the collectors and the cli engine (no Django). The raw texts read before and after are
written to $NASUI_VM_OUT/monitoring/ (the fast lane's fixtures come from there) together with
summary.json, the figures before and after.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from vmhelpers import sync_pool, wait_for

from monitoring.metrics.engine import Sources, take_sample
from monitoring.metrics.engine.pool_io import IOSTAT_INTERVAL
from monitoring.metrics.engine.sample import Sample
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

POOL = "mpool"
ZVOL = f"{POOL}/ddvol"
MIB = 1 << 20
OUT = Path(os.environ.get("NASUI_VM_OUT", "/tmp")) / "monitoring"


class Recorder:
    """Sources that also keep every text they read, under a label, for the fixtures."""

    def __init__(self, engine: CliZfsEngine) -> None:
        self.engine = engine
        self.label = "before"
        OUT.mkdir(parents=True, exist_ok=True)

    def read_text(self, path: str) -> str:
        text = Path(path).read_text()
        (OUT / f"{Path(path).name}_{self.label}.txt").write_text(text)
        return text

    def iostat(self) -> str:
        text = self.engine.pool_iostat(IOSTAT_INTERVAL) or ""
        (OUT / f"zpool_iostat_y_{self.label}.txt").write_text(text)
        return text

    def sources(self) -> Sources:
        return Sources(read_text=self.read_text, pools=self.engine, iostat=self.iostat)

    def sample(self, label: str, previous: Sample | None = None, seconds: float = 0.0) -> Sample:
        self.label = label
        out = take_sample(self.sources(), previous.counters if previous else None, seconds)
        for argv, name in (
            (["zpool", "status", "-D", "-p", POOL], "zpool_status_D"),
            (["zpool", "iostat", "-H", "-p"], "zpool_iostat"),
            (["zpool", "list", "-H", "-p"], "zpool_list"),
        ):
            (OUT / f"{name}_{label}.txt").write_text(self.engine.run(argv).stdout)
        return out


def _write_dedup_data(path: str) -> None:
    """32 MiB of unique 4K blocks, then the same 8 MiB three more times: dedup ratio > 1."""
    unique = os.urandom(32 * MIB)
    with open(path, "r+b") as vol:
        vol.write(unique)
        for copy in range(1, 4):
            vol.seek((32 + 8 * copy) * MIB)
            vol.write(unique[: 8 * MIB])
        vol.flush()
        os.fsync(vol.fileno())


def _write_until(path: str, stop: threading.Event) -> None:
    """Rewrite the same 1 MiB with fsync until told to stop: steady pool writes."""
    block = os.urandom(MIB)
    with open(path, "r+b") as vol:
        while not stop.is_set():
            vol.seek(96 * MIB)
            vol.write(block)
            vol.flush()
            os.fsync(vol.fileno())


@pytest.fixture(scope="module")
def pool(module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine) -> str:
    """A one-disk pool with a sparse 4K dedup zvol, still empty."""
    name = module_pool(POOL, PoolLayout.single("stripe", all_disks[6:7]))
    engine.create_zvol(ZVOL, size=128 * MIB, volblocksize=4096, sparse=True,
                       properties={"dedup": "on", "compression": "off"})  # fmt: skip
    assert wait_for(lambda: Path(f"/dev/zvol/{ZVOL}").exists(), timeout=30)
    return name


@pytest.fixture(scope="module")
def samples(pool: str, engine: CliZfsEngine) -> dict[str, Sample]:
    """Samples before writing, during the write (pool I/O), and after it (DDT synced)."""
    rec = Recorder(engine)
    before = rec.sample("before")
    t0 = time.monotonic()
    _write_dedup_data(f"/dev/zvol/{ZVOL}")
    stop = threading.Event()
    writer = threading.Thread(target=_write_until, args=(f"/dev/zvol/{ZVOL}", stop))
    writer.start()
    during = rec.sample("during", before, time.monotonic() - t0)  # zpool iostat sees the writes
    stop.set()
    writer.join()
    sync_pool(engine, pool)
    with open(f"/dev/zvol/{ZVOL}", "rb") as vol:  # reads go through the ARC: hits move
        while vol.read(MIB):
            pass
    key = f"pool.{pool}.ddt_in_core"

    def ddt_synced() -> bool:
        engine.run(["zpool", "sync", pool])
        return engine.dedup_table(pool).size_in_core > 0

    wait_for(ddt_synced, timeout=60, step=2)
    after = rec.sample("after", before, time.monotonic() - t0)
    summary: dict[str, dict[str, Any]] = {
        label: {"values": s.values, "unavailable": s.unavailable, "health": s.health}
        for label, s in {"before": before, "during": during, "after": after}.items()
    }
    (OUT / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    print(json.dumps({k: {m: v["values"].get(m) for m in (key, "arc.size")}
                      for k, v in summary.items()}))  # fmt: skip
    return {"before": before, "during": during, "after": after}


def test_every_collector_has_its_source_in_the_vm(samples: dict[str, Sample]) -> None:
    assert samples["after"].unavailable == {}
    assert samples["after"].health == {POOL: "ONLINE"}


def test_the_dedup_table_grows_when_a_dedup_zvol_fills(samples: dict[str, Sample]) -> None:
    before, after = samples["before"].values, samples["after"].values
    assert before[f"pool.{POOL}.ddt_entries"] == 0
    assert after[f"pool.{POOL}.ddt_entries"] >= 8192  # 32 MiB of unique 4K blocks
    assert after[f"pool.{POOL}.ddt_in_core"] > 0
    assert after[f"pool.{POOL}.ddt_on_disk"] > 0
    assert after[f"pool.{POOL}.dedupratio"] > 1.2


def test_the_arc_grows_and_counts_hits(samples: dict[str, Sample]) -> None:
    before, after = samples["before"].values, samples["after"].values
    assert after["arc.size"] > before["arc.size"]
    assert after["arc.c_max"] >= after["arc.target"] > 0
    assert after["arc.demand_data_hits"] + after["arc.demand_data_misses"] > 0
    assert 0 <= after["arc.hit_ratio"] <= 100
    assert after["mem.arc"] == pytest.approx(after["arc.size"], rel=0.2)


def test_pool_space_and_io_move(samples: dict[str, Sample]) -> None:
    before, during, after = (samples[k].values for k in ("before", "during", "after"))
    assert after[f"pool.{POOL}.allocated"] > before[f"pool.{POOL}.allocated"] + 16 * MIB
    assert during[f"pool.{POOL}.write_bw"] > 0
    assert during[f"pool.{POOL}.write_ops"] > 0
    assert after[f"pool.{POOL}.compressratio"] == pytest.approx(1.0, abs=0.05)


def test_cpu_and_memory_rates_are_sane(samples: dict[str, Sample]) -> None:
    after = samples["after"].values
    assert 0 <= after["cpu.busy"] <= 100
    assert after["cpu.busy"] > 0  # writing 56 MiB with dedup under TCG keeps the CPUs busy
    assert after["mem.total"] > after["mem.used"] > 0

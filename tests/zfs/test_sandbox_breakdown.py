"""Sandbox engine: the used breakdown, reservations, ashift, and settling the figures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from storage.zfs.base import Dataset, PoolLayout
from storage.zfs.errors import PoolNotFound
from storage.zfs.sandbox import SandboxZfsEngine

GIB = 1024**3
MIB = 1024**2


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def engine(tmp_path: Path, clock: Clock) -> SandboxZfsEngine:
    sandbox = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=4, disk_size=2 * GIB, clock=clock)
    sandbox.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    sandbox.set_properties("tank", {"compression": "off"})
    return sandbox


def write_file(engine: SandboxZfsEngine, name: str, data: bytes) -> None:
    Path(engine.get_dataset(name).mountpoint or "", "data").write_bytes(data)


def write_zvol(engine: SandboxZfsEngine, name: str, data: bytes) -> None:
    with engine.zvol_path(name).open("r+b") as vol:
        vol.write(data)


def breakdown_sum(dataset: Dataset) -> int:
    return (
        dataset.usedbydataset
        + dataset.usedbychildren
        + dataset.usedbysnapshots
        + dataset.usedbyrefreservation
    )


def test_used_is_the_sum_of_its_breakdown_everywhere(engine):
    engine.create_dataset("tank/a")
    engine.create_dataset("tank/a/b", properties={"reservation": str(16 * MIB)})
    engine.create_zvol("tank/a/thick", size=32 * MIB, volblocksize=16384)
    write_file(engine, "tank/a", os.urandom(MIB))
    write_file(engine, "tank/a/b", os.urandom(2 * MIB))
    write_zvol(engine, "tank/a/thick", os.urandom(4 * MIB))
    engine.settle("tank")

    datasets = engine.list_datasets("tank")
    assert len(datasets) == 4
    for dataset in datasets:
        assert dataset.used == breakdown_sum(dataset), dataset.name


def test_a_thick_zvol_splits_its_used_into_data_and_unused_refreservation(engine):
    engine.create_zvol("tank/thick", size=64 * MIB, volblocksize=16384)
    write_zvol(engine, "tank/thick", os.urandom(4 * MIB))
    engine.settle("tank")

    vol = engine.get_dataset("tank/thick")
    assert (vol.refreservation, vol.used) == (64 * MIB, 64 * MIB)
    assert (vol.usedbydataset, vol.referenced, vol.logicalreferenced) == (4 * MIB,) * 3
    assert vol.usedbyrefreservation == 60 * MIB
    assert (vol.usedbychildren, vol.usedbysnapshots) == (0, 0)


def test_an_unused_reservation_is_charged_to_the_parent_not_the_dataset(engine):
    engine.create_dataset("tank/r", properties={"reservation": str(32 * MIB)})
    write_file(engine, "tank/r", os.urandom(MIB))
    engine.settle("tank")

    held, root = engine.get_dataset("tank/r"), engine.get_dataset("tank")
    assert (held.used, held.usedbydataset, held.usedbyrefreservation) == (MIB, MIB, 0)
    assert root.usedbychildren == 32 * MIB
    # what it reserved but has not written is still its own to fill
    assert held.available == root.available + 31 * MIB


def test_logicalreferenced_counts_only_the_datasets_own_data(engine):
    engine.create_dataset("tank/p", properties={"compression": "lz4"})
    engine.create_dataset("tank/p/c", properties={"compression": "lz4"})
    write_file(engine, "tank/p", bytes(range(256)) * 4096)
    write_file(engine, "tank/p/c", os.urandom(2 * MIB))
    engine.settle()

    parent = engine.get_dataset("tank/p")
    assert parent.logicalreferenced == MIB
    assert parent.logicalused == 3 * MIB
    assert parent.referenced < parent.logicalreferenced  # compressed
    assert parent.usedbychildren == engine.get_dataset("tank/p/c").used


def test_zfs_get_gives_the_same_breakdown(engine):
    engine.create_zvol("tank/thick", size=16 * MIB)
    write_zvol(engine, "tank/thick", os.urandom(MIB))
    engine.settle("tank")

    vol = engine.get_dataset("tank/thick")
    props = engine.get_properties("tank/thick")
    for prop in ("usedbydataset", "usedbysnapshots", "usedbyrefreservation", "logicalreferenced"):
        assert int(props[prop].value) == getattr(vol, prop), prop


def test_sandbox_pools_report_ashift_12(engine):
    pool = engine.get_pool("tank")
    assert (pool.ashift, pool.sector_size) == (12, 4096)
    assert [p.ashift for p in engine.list_pools()] == [12]


def test_figures_lag_writes_until_the_pool_is_settled(engine, clock):
    engine.create_zvol("tank/vol", size=16 * MIB, sparse=True)
    created_at = clock.now
    clock.now += 60
    write_zvol(engine, "tank/vol", os.urandom(MIB))

    stale = engine.get_dataset("tank/vol")
    assert (stale.referenced, stale.figures_read_at) == (0, created_at)
    clock.now += 60
    engine.settle("tank")
    settled = engine.get_dataset("tank/vol")
    assert (settled.referenced, settled.figures_read_at) == (MIB, clock.now)


def test_settling_one_pool_leaves_the_others_figures_alone(engine, clock):
    engine.create_pool("other", PoolLayout.single("stripe", ["sdb"]))
    engine.set_properties("other", {"compression": "off"})
    for pool in ("tank", "other"):
        write_file(engine, pool, os.urandom(MIB))
    clock.now += 60

    engine.settle("other")
    assert engine.get_dataset("other").referenced == MIB
    assert engine.get_dataset("tank").referenced == 0
    assert engine.get_dataset("tank").figures_read_at < engine.get_dataset("other").figures_read_at


def test_settling_an_unknown_pool_is_refused(engine):
    with pytest.raises(PoolNotFound):
        engine.settle("nosuchpool")

"""Snapshots on real OpenZFS through the cli engine: the flows the sandbox imitates.

tests/zfs/test_sandbox_snapshots.py runs the same flows on the sandbox engine.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from vmhelpers import wait_for

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import (
    DatasetBusy,
    DatasetExists,
    HasChildren,
    HasClones,
    NewerSnapshots,
    SnapshotNotFound,
)

POOL = "snappool"
MIB = 1 << 20


@pytest.fixture(scope="module")
def pool(module_pool: Callable[..., str], all_disks: list[str]) -> str:
    """One disk for the module's datasets."""
    return module_pool(POOL, PoolLayout.single("stripe", all_disks[5:6]))


@pytest.fixture
def dataset(pool: str, engine: CliZfsEngine, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh file system with a child, destroyed (with its snapshots) afterwards."""
    name = f"{pool}/{request.node.name.replace('test_', '')[:40]}"
    engine.create_dataset(name)
    engine.create_dataset(f"{name}/kid")
    yield name
    engine.destroy_dataset(name, recursive=True)


def test_rollback_restores_the_bytes(engine: CliZfsEngine, dataset: str) -> None:
    data = Path(f"/{dataset}/data")
    before = os.urandom(2 * MIB)
    data.write_bytes(before)
    engine.create_snapshot(f"{dataset}@one")
    data.write_bytes(os.urandom(2 * MIB))
    Path(f"/{dataset}/extra").write_text("new")
    engine.rollback(f"{dataset}@one")
    assert data.read_bytes() == before
    assert not Path(f"/{dataset}/extra").exists()


def test_newer_snapshots_are_named_and_go_only_with_consent(
    engine: CliZfsEngine, dataset: str
) -> None:
    for short in ("one", "two", "three"):
        engine.create_snapshot(f"{dataset}@{short}")
    with pytest.raises(NewerSnapshots) as caught:
        engine.rollback(f"{dataset}@one")
    assert caught.value.names == [f"{dataset}@two", f"{dataset}@three"]
    engine.rollback(f"{dataset}@one", destroy_newer=True)
    assert [s.short_name for s in engine.list_snapshots(dataset)] == ["one"]


def test_a_clone_is_writable_independent_and_named_when_it_blocks(
    engine: CliZfsEngine, dataset: str, pool: str
) -> None:
    Path(f"/{dataset}/a.txt").write_text("hello")
    engine.create_snapshot(f"{dataset}@one")
    clone = f"{pool}/copy"
    engine.clone(f"{dataset}@one", clone)
    try:
        assert Path(f"/{clone}/a.txt").read_text() == "hello"
        Path(f"/{clone}/a.txt").write_text("mine")
        assert Path(f"/{dataset}/a.txt").read_text() == "hello"
        assert engine.list_snapshots(dataset)[0].clones == (clone,)
        with pytest.raises(HasClones) as caught:
            engine.destroy_snapshots(dataset, ["one"])
        assert caught.value.names == [clone]
        engine.create_snapshot(f"{dataset}@two")
        engine.clone(f"{dataset}@two", f"{clone}2")
        with pytest.raises(HasClones) as caught:
            engine.rollback(f"{dataset}@one", destroy_newer=True)
        assert caught.value.names == [f"{clone}2"]
    finally:
        engine.destroy_dataset(clone)
        engine.destroy_dataset(f"{clone}2")
    engine.destroy_snapshots(dataset, ["one", "two"])
    assert engine.list_snapshots(dataset) == []


def test_recursive_snapshots_holds_and_missing_names(engine: CliZfsEngine, dataset: str) -> None:
    engine.create_snapshot(f"{dataset}@r", recursive=True, properties={"nasui:task": "4"})
    found = engine.list_snapshots(dataset, recursive=True)
    assert [(s.name, s.task) for s in found] == [(f"{dataset}@r", "4"), (f"{dataset}/kid@r", "4")]
    engine.hold(f"{dataset}/kid@r", "keep")
    assert engine.list_snapshots(f"{dataset}/kid")[0].holds == 1
    with pytest.raises(DatasetBusy):
        engine.destroy_snapshots(dataset, ["r"], recursive=True)
    engine.release(f"{dataset}/kid@r", "keep")
    with pytest.raises(DatasetExists):
        engine.create_snapshot(f"{dataset}@r")
    with pytest.raises(SnapshotNotFound):
        engine.destroy_snapshots(dataset, ["nope"])
    with pytest.raises(HasChildren):
        engine.destroy_dataset(f"{dataset}/kid")
    engine.destroy_snapshots(dataset, ["r"], recursive=True)
    assert engine.list_snapshots(dataset, recursive=True) == []


def test_diff_names_added_removed_modified_and_renamed_paths(
    engine: CliZfsEngine, dataset: str
) -> None:
    root = Path(f"/{dataset}")
    (root / "edit.txt").write_text("before")
    (root / "gone.txt").write_text("bye")
    (root / "old name.txt").write_text("x")
    engine.create_snapshot(f"{dataset}@one")
    (root / "edit.txt").write_text("after!")
    (root / "gone.txt").unlink()
    (root / "new.txt").write_text("hi")
    (root / "old name.txt").rename(root / "new name.txt")
    changes = {
        (e.change, Path(e.path).name, Path(e.new_path).name) for e in engine.diff(f"{dataset}@one")
    }
    assert {
        ("modified", "edit.txt", ""),
        ("removed", "gone.txt", ""),
        ("added", "new.txt", ""),
        ("renamed", "old name.txt", "new name.txt"),
    } <= changes


def test_a_zvol_snapshot_rolls_back_and_its_clone_reserves_nothing(
    engine: CliZfsEngine, pool: str
) -> None:
    vol = f"{pool}/vol"
    engine.create_zvol(vol, size=64 * MIB, volblocksize=16384)
    device = Path(f"/dev/zvol/{vol}")
    assert wait_for(device.exists, timeout=30)
    first = os.urandom(MIB)
    with open(device, "r+b") as disk:
        disk.write(first)
    engine.create_snapshot(f"{vol}@s")
    with open(device, "r+b") as disk:
        disk.write(os.urandom(MIB))
    engine.clone(f"{vol}@s", f"{vol}2")
    try:
        clone = engine.get_dataset(f"{vol}2")
        assert (clone.volsize, clone.refreservation) == (64 * MIB, None)
        engine.rollback(f"{vol}@s")
        with open(device, "rb") as disk:
            assert disk.read(MIB) == first
    finally:
        engine.destroy_dataset(f"{vol}2")
        engine.destroy_dataset(vol, recursive=True)

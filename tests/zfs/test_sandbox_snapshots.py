"""Sandbox snapshots: the flows and refusals of OpenZFS (tests/vm/test_snapshots.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout
from storage.zfs.errors import (
    DatasetBusy,
    DatasetExists,
    HasChildren,
    HasClones,
    NewerSnapshots,
    SnapshotNotFound,
    ZfsError,
)
from storage.zfs.sandbox import SandboxZfsEngine

GIB = 1024**3
MIB = 1024**2


@pytest.fixture
def engine(tmp_path: Path) -> SandboxZfsEngine:
    sandbox = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=2, disk_size=2 * GIB)
    disk = sandbox.list_disks()[0].path
    sandbox.create_pool("tank", PoolLayout("stripe", ((disk,),)))
    sandbox.create_dataset("tank/d")
    sandbox.create_dataset("tank/d/kid")
    return sandbox


def files(engine: SandboxZfsEngine, name: str = "tank/d") -> Path:
    return Path(engine.get_dataset(name).mountpoint or "")


def test_rollback_puts_the_bytes_back_in_the_same_directory(engine: SandboxZfsEngine) -> None:
    root = files(engine)
    (root / "a.txt").write_text("hello")
    engine.create_snapshot("tank/d@one")
    (root / "a.txt").write_text("changed")
    (root / "b.txt").write_text("new")
    inode = root.stat().st_ino
    engine.rollback("tank/d@one")
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]
    assert (root / "a.txt").read_text() == "hello"
    assert root.stat().st_ino == inode  # shares keep pointing at the same folder


def test_rollback_past_newer_snapshots_needs_consent_and_names_them(
    engine: SandboxZfsEngine,
) -> None:
    for name in ("one", "two", "three"):
        engine.create_snapshot(f"tank/d@{name}")
    with pytest.raises(NewerSnapshots) as caught:
        engine.rollback("tank/d@one")
    assert caught.value.names == ["tank/d@two", "tank/d@three"]
    assert len(engine.list_snapshots("tank/d")) == 3
    engine.rollback("tank/d@one", destroy_newer=True)
    assert [s.short_name for s in engine.list_snapshots("tank/d")] == ["one"]


def test_a_clone_is_writable_independent_and_blocks_its_snapshot(
    engine: SandboxZfsEngine,
) -> None:
    (files(engine) / "a.txt").write_text("hello")
    engine.create_snapshot("tank/d@one")
    engine.clone("tank/d@one", "tank/copy")
    copy = files(engine, "tank/copy")
    assert (copy / "a.txt").read_text() == "hello"
    (copy / "a.txt").write_text("mine")
    assert (files(engine) / "a.txt").read_text() == "hello"
    assert engine.list_snapshots("tank/d")[0].clones == ("tank/copy",)
    with pytest.raises(HasClones) as caught:
        engine.destroy_snapshots("tank/d", ["one"])
    assert caught.value.names == ["tank/copy"]
    with pytest.raises(HasClones):
        engine.destroy_dataset("tank/d", recursive=True)
    engine.destroy_dataset("tank/copy")
    engine.destroy_snapshots("tank/d", ["one"])
    assert engine.list_snapshots("tank/d") == []


def test_a_rollback_over_a_cloned_newer_snapshot_is_refused(engine: SandboxZfsEngine) -> None:
    engine.create_snapshot("tank/d@one")
    engine.create_snapshot("tank/d@two")
    engine.clone("tank/d@two", "tank/copy")
    with pytest.raises(HasClones) as caught:
        engine.rollback("tank/d@one", destroy_newer=True)
    assert caught.value.names == ["tank/copy"]
    assert len(engine.list_snapshots("tank/d")) == 2


def test_recursive_snapshots_cover_the_tree_and_destroy_all_or_nothing(
    engine: SandboxZfsEngine,
) -> None:
    engine.create_snapshot("tank/d@r", recursive=True)
    names = [s.name for s in engine.list_snapshots("tank/d", recursive=True)]
    assert names == ["tank/d@r", "tank/d/kid@r"]
    engine.hold("tank/d/kid@r", "keep")
    with pytest.raises(DatasetBusy):
        engine.destroy_snapshots("tank/d", ["r"], recursive=True)
    assert len(engine.list_snapshots("tank/d", recursive=True)) == 2
    engine.release("tank/d/kid@r", "keep")
    engine.destroy_snapshots("tank/d", ["r"], recursive=True)
    assert engine.list_snapshots("tank/d", recursive=True) == []


def test_names_are_unique_and_missing_ones_are_said(engine: SandboxZfsEngine) -> None:
    engine.create_snapshot("tank/d@one", properties={"nasui:task": "4"})
    assert engine.list_snapshots("tank/d")[0].task == "4"
    with pytest.raises(DatasetExists):
        engine.create_snapshot("tank/d@one")
    with pytest.raises(SnapshotNotFound):
        engine.destroy_snapshots("tank/d", ["nope"])
    with pytest.raises(SnapshotNotFound):
        engine.rollback("tank/d@nope")


def test_a_dataset_with_snapshots_needs_a_recursive_destroy(engine: SandboxZfsEngine) -> None:
    engine.create_dataset("tank/e")
    engine.create_snapshot("tank/e@one")
    with pytest.raises(HasChildren, match="tank/e@one"):
        engine.destroy_dataset("tank/e")
    engine.destroy_dataset("tank/e", recursive=True)


def test_diff_lists_added_removed_and_modified_files(engine: SandboxZfsEngine) -> None:
    root = files(engine)
    (root / "keep.txt").write_text("same")
    (root / "edit.txt").write_text("before")
    (root / "gone.txt").write_text("bye")
    engine.create_snapshot("tank/d@one")
    (root / "edit.txt").write_text("after!")
    (root / "gone.txt").unlink()
    (root / "new.txt").write_text("hi")
    changes = {(e.change, Path(e.path).name) for e in engine.diff("tank/d@one")}
    assert changes == {("modified", "edit.txt"), ("removed", "gone.txt"), ("added", "new.txt")}


def test_a_zvol_snapshot_keeps_its_blocks_and_its_clone_reserves_nothing(
    engine: SandboxZfsEngine,
) -> None:
    engine.create_zvol("tank/vol", size=64 * MIB)
    path = engine.zvol_path("tank/vol")
    with open(path, "r+b") as disk:
        disk.write(b"\x01" * MIB)
    engine.create_snapshot("tank/vol@s")
    with open(path, "r+b") as disk:
        disk.write(b"\x02" * MIB)
    assert engine.list_snapshots("tank/vol")[0].used == MIB
    with pytest.raises(ZfsError, match="not applicable"):
        engine.diff("tank/vol@s")
    engine.clone("tank/vol@s", "tank/vol2")
    clone = engine.get_dataset("tank/vol2")
    assert (clone.volsize, clone.refreservation) == (64 * MIB, None)
    assert engine.zvol_path("tank/vol2").read_bytes()[:MIB] == b"\x01" * MIB
    engine.rollback("tank/vol@s")
    assert path.read_bytes()[:MIB] == b"\x01" * MIB

"""The LIO engine's steps and reading on a fake rtslib.

A failed step leaves LIO holding part of a plan; the save file is what a reboot restores, so
it must be rewritten then too, by `apply` and by `refresh_lun_size` alike. Thin provisioning
(UNMAP) is set on storage objects as they are created or switched in place, and read back.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sharing.iscsi.engine.desired import DesiredState, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import EngineFailure
from sharing.iscsi.engine.lio import LioEngine, backing, engine, kernel, parsing
from sharing.iscsi.engine.lio.rules import so_name
from sharing.iscsi.engine.lio.state import SoState
from sharing.iscsi.engine.lio.steps import CreateSo, SetUnmap, run_step

IQN = "iqn.2005-10.org.nasui:t1"
PORTAL = PortalSpec("127.0.0.1", 3260)


class FakeRTSLibError(Exception):
    """Stands for rtslib's RTSLibError."""


class FakeRoot:
    """An RTSRoot holding the given targets and storage objects; records each save."""

    def __init__(self, targets: list[Any], storage_objects: list[Any]) -> None:
        self.targets = targets
        self.storage_objects = storage_objects
        self.saved: list[str] = []
        self.dbroot = ""  # where LIO keeps its own files (rtslib sets it)

    def save_to_file(self, path: str) -> None:
        """What rtslib does to write the save file: here, only noted."""
        self.saved.append(path)


def refuse(*_args: object, **_kwargs: object) -> Any:
    """Every change to the fake LIO fails, as a full or broken configfs would."""
    raise FakeRTSLibError("configfs refused")


def fake_lio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, root: FakeRoot) -> None:
    """Point the engine's kernel access at `root`, an empty fabric and a refusing rtslib."""
    fabric = SimpleNamespace(
        discovery_enable_auth=False,
        discovery_userid=None,
        discovery_password=None,
        discovery_mutual_userid=None,
        discovery_mutual_password=None,
    )
    rts = SimpleNamespace(
        RTSLibError=FakeRTSLibError,
        RTSRoot=lambda: root,
        FabricModule=lambda _name: fabric,
        Target=refuse,
        TPG=refuse,
        LUN=refuse,
        NodeACL=refuse,
        BlockStorageObject=refuse,
        FileIOStorageObject=refuse,
    )
    configfs = tmp_path / "configfs"
    (configfs / "target").mkdir(parents=True)
    monkeypatch.setattr(kernel, "rtslib", lambda: rts)
    monkeypatch.setattr(kernel, "CONFIGFS", configfs)


def file_lun_target(path: Path, size: int) -> tuple[Any, Any]:
    """A running target exporting `path` as LUN 1, and its fileio object of `size` bytes."""
    name = so_name(str(path))
    so = SimpleNamespace(
        name=name,
        plugin="fileio",
        is_block=False,
        size=size,
        udev_path=str(path),
        readonly=False,
        wwn="SERIAL1",
        get_attribute=lambda _attr: "512",
    )
    tpg = SimpleNamespace(
        tag=1,
        enable=True,
        path=str(path.parent / "tpg"),
        node_acls=[],
        network_portals=[],
        luns=[SimpleNamespace(lun=1, storage_object=SimpleNamespace(name=name))],
        get_attribute=lambda _attr: "0",
        chap_userid=None,
        chap_password=None,
        chap_mutual_userid=None,
        chap_mutual_password=None,
    )
    target = SimpleNamespace(wwn=IQN, fabric_module=SimpleNamespace(name="iscsi"), tpgs=[tpg])
    return target, so


def test_apply_saves_the_configuration_after_a_failed_step(monkeypatch, tmp_path):
    root = FakeRoot([], [])
    fake_lio(monkeypatch, tmp_path, root)
    lio = LioEngine(save_file=tmp_path / "lio" / "saveconfig.json")
    with pytest.raises(EngineFailure, match="CreateTarget: configfs refused"):
        lio.apply(DesiredState(targets=(TargetSpec(IQN),), portals=(PORTAL,)))
    assert root.saved == [str(lio.save_file)]


def test_refresh_lun_size_saves_the_configuration_after_a_failed_step(monkeypatch, tmp_path):
    disk = tmp_path / "disk.img"
    disk.write_bytes(b"\0" * 8192)  # grown: LIO still exports 4096 bytes
    target, so = file_lun_target(disk, 4096)
    root = FakeRoot([target], [so])
    fake_lio(monkeypatch, tmp_path, root)
    lio = LioEngine(save_file=tmp_path / "lio" / "saveconfig.json")
    with pytest.raises(EngineFailure, match="DeleteLun: configfs refused"):
        lio.refresh_lun_size(IQN, 1)
    assert root.saved == [str(lio.save_file)]


def test_steps_that_all_run_are_saved_once_and_no_steps_save_nothing(monkeypatch, tmp_path):
    root = FakeRoot([], [])
    fake_lio(monkeypatch, tmp_path, root)
    ran: list[str] = []
    monkeypatch.setattr(engine, "run_step", lambda step: ran.append(type(step).__name__))
    lio = LioEngine(save_file=tmp_path / "lio" / "saveconfig.json")
    report = lio.apply(DesiredState(targets=(TargetSpec(IQN),), portals=(PORTAL,)))
    assert ran[0] == "CreateTarget"
    assert ran[-1] == "EnableTpg"
    assert f"add target {IQN}" in report.lines()
    assert root.saved == [str(lio.save_file)]
    assert not lio.apply(DesiredState()).changed  # the fake LIO is still empty: nothing to do
    assert root.saved == [str(lio.save_file)]


# -- thin provisioning (UNMAP) ---------------------------------------------------------------

ZVOL = "/dev/zvol/tank/vol1"


class FakeSo:
    """A storage object whose configfs attributes are a dict; records every write."""

    # what LIO shows for a fresh iblock object over a 64 MiB zvol with 512-byte sectors
    ZVOL_ATTRIBUTES = {
        "block_size": "512",
        "hw_block_size": "512",
        "max_unmap_lba_count": "131072",
        "unmap_granularity": "8",
        "unmap_granularity_alignment": "0",
        "emulate_tpu": "0",
        "emulate_tpws": "0",
    }

    def __init__(self, name: str, **kw: Any) -> None:
        self.name = name
        self.kw = kw
        self.attributes = dict(self.ZVOL_ATTRIBUTES)
        self.writes: list[tuple[str, str]] = []
        self.deleted = False

    def get_attribute(self, name: str) -> str:
        """configfs read."""
        return self.attributes[name]

    def set_attribute(self, name: str, value: str) -> None:
        """configfs write."""
        self.attributes[name] = value
        self.writes.append((name, value))

    def delete(self) -> None:
        """Removal from configfs."""
        self.deleted = True


def fake_objects(monkeypatch: pytest.MonkeyPatch, existing: FakeSo | None = None) -> list[FakeSo]:
    """A fake rtslib whose storage-object classes create (or look up `existing`) FakeSos."""
    made: list[FakeSo] = []

    def storage_object(name: str, **kw: Any) -> FakeSo:
        if existing is not None and not kw:
            return existing
        made.append(FakeSo(name, **kw))
        return made[-1]

    rts = SimpleNamespace(
        RTSLibError=FakeRTSLibError,
        BlockStorageObject=storage_object,
        FileIOStorageObject=storage_object,
    )
    monkeypatch.setattr(kernel, "rtslib", lambda: rts)
    return made


def test_a_new_zvol_object_is_thin_with_limits_in_its_own_blocks(monkeypatch):
    made = fake_objects(monkeypatch)
    so = SoState(name="vol1", plugin="block", path=ZVOL, block_size=4096, serial="S1", unmap=True)
    run_step(CreateSo(so=so))
    attributes = made[0].attributes
    assert (attributes["emulate_tpu"], attributes["emulate_tpws"]) == ("1", "1")
    # 131072 sectors of 512 bytes = 16384 blocks of 4096; 8 sectors = 1 block
    assert attributes["max_unmap_lba_count"] == "16384"
    assert attributes["unmap_granularity"] == "1"
    assert made[0].writes[0] == ("block_size", "4096")  # before anything exports it


def test_a_thick_object_with_native_blocks_keeps_lios_defaults(monkeypatch):
    made = fake_objects(monkeypatch)
    run_step(CreateSo(so=SoState(name="vol1", plugin="block", path=ZVOL, block_size=512)))
    assert made[0].writes == [("block_size", "512")]
    assert made[0].attributes == FakeSo.ZVOL_ATTRIBUTES


def test_set_unmap_switches_both_attributes_of_the_existing_object(monkeypatch):
    existing = FakeSo("vol1")
    fake_objects(monkeypatch, existing)
    run_step(SetUnmap(name="vol1", plugin="block", enabled=True))
    assert existing.writes == [("emulate_tpu", "1"), ("emulate_tpws", "1")]
    run_step(SetUnmap(name="vol1", plugin="block", enabled=False))
    assert (existing.attributes["emulate_tpu"], existing.attributes["emulate_tpws"]) == ("0", "0")


def test_reading_lio_sees_unmap_only_with_both_attributes_on():
    def so_object(tpu: str, tpws: str) -> Any:
        values = {"block_size": "4096", "emulate_tpu": tpu, "emulate_tpws": tpws}
        return SimpleNamespace(
            name=f"so{tpu}{tpws}",
            plugin="block",
            udev_path=ZVOL,
            readonly=False,
            wwn="S1",
            get_attribute=values.__getitem__,
        )

    root = FakeRoot([], [so_object("1", "1"), so_object("1", "0"), so_object("0", "0")])
    fabric = SimpleNamespace(
        discovery_enable_auth=False,
        discovery_userid=None,
        discovery_password=None,
        discovery_mutual_userid=None,
        discovery_mutual_password=None,
    )
    state = parsing.read_state(root, fabric)
    assert [so.unmap for so in state.storage_objects] == [True, False, False]


def fake_block_device(monkeypatch: pytest.MonkeyPatch, path: str, major: int, minor: int) -> None:
    """Make os.stat in `backing` report `path` as a block device with this number."""
    real_stat = os.stat

    def fake_stat(p: Any, *args: Any, **kw: Any) -> Any:
        if str(p) != path:
            return real_stat(p, *args, **kw)
        return SimpleNamespace(st_mode=stat.S_IFBLK | 0o660, st_rdev=os.makedev(major, minor))

    monkeypatch.setattr(os, "stat", fake_stat)  # the fake passes other paths through


def test_discard_support_is_read_from_the_devices_queue(monkeypatch, tmp_path):
    disk = tmp_path / "devices" / "zd0"
    (disk / "queue").mkdir(parents=True)
    (disk / "zd0p1").mkdir()
    sysfs = tmp_path / "dev_block"
    sysfs.mkdir()
    (sysfs / "230:0").symlink_to(disk)
    (sysfs / "230:1").symlink_to(disk / "zd0p1")  # a partition: its disk's queue applies
    fake_block_device(monkeypatch, ZVOL, 230, 0)
    (disk / "queue" / "discard_max_bytes").write_text("67108864\n")
    assert backing.discards(ZVOL, sysfs)
    (disk / "queue" / "discard_max_bytes").write_text("0\n")
    assert not backing.discards(ZVOL, sysfs)
    fake_block_device(monkeypatch, ZVOL, 230, 1)
    assert not backing.discards(ZVOL, sysfs)
    (disk / "queue" / "discard_max_bytes").write_text("4096\n")
    assert backing.discards(ZVOL, sysfs)
    fake_block_device(monkeypatch, ZVOL, 231, 0)  # no such device in sysfs: not advertised
    assert not backing.discards(ZVOL, sysfs)


def test_a_plain_file_always_discards_and_a_missing_path_never(tmp_path):
    file = tmp_path / "lun.img"
    file.write_bytes(b"")
    assert backing.discards(str(file))
    assert not backing.discards(str(tmp_path / "missing.img"))


# -- persistent reservations -----------------------------------------------------------------


def test_start_makes_the_directory_lio_writes_reservations_to(monkeypatch, tmp_path):
    root = FakeRoot([], [])
    root.dbroot = str(tmp_path / "etc" / "rtslib-fb-target")
    fake_lio(monkeypatch, tmp_path, root)
    monkeypatch.setattr(kernel, "load", lambda _modprobe, _timeout: None)
    lio = LioEngine(save_file=None, lock_file=tmp_path / "lio.lock")
    lio.start()
    pr = tmp_path / "etc" / "rtslib-fb-target" / "pr"
    assert pr.is_dir()
    assert stat.S_IMODE(pr.stat().st_mode) == 0o700
    lio.start()  # already there: still fine
    assert pr.is_dir()

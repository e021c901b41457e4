"""The LIO engine's step loop on a fake rtslib: the configuration is saved even after a failure.

A failed step leaves LIO holding part of a plan; the save file is what a reboot restores, so
it must be rewritten then too, by `apply` and by `refresh_lun_size` alike.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sharing.iscsi.desired import DesiredState, PortalSpec, TargetSpec
from sharing.iscsi.errors import EngineFailure
from sharing.iscsi.lio import LioEngine, engine, kernel
from sharing.iscsi.lio.rules import so_name

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

"""Sandbox disk lifecycle: the flows and refusals of OpenZFS (tests/vm/test_disk_lifecycle.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout, ZfsEngine
from storage.zfs.errors import (
    DeviceInUse,
    DeviceNotFound,
    DeviceTooSmall,
    NotAttachable,
    NotDetachable,
    NoValidReplicas,
    ReplicationMismatch,
    ZfsError,
)
from storage.zfs.sandbox import SandboxZfsEngine

GIB = 1024**3


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def engine(tmp_path: Path, clock: Clock) -> SandboxZfsEngine:
    return SandboxZfsEngine(root=tmp_path / "sbx", disk_count=8, disk_size=2 * GIB, clock=clock)


def mirror(engine: SandboxZfsEngine) -> SandboxZfsEngine:
    engine.create_pool("tank", PoolLayout.single("mirror", ["sda", "sdb"]))
    return engine


def leaves(engine: SandboxZfsEngine) -> dict[str, str]:
    status = engine.pool_status("tank")
    return {leaf.name: leaf.state for v in status.vdevs for leaf in v.leaves}


def finish_resilver(engine: SandboxZfsEngine, clock: Clock) -> None:
    clock.now += 120
    assert engine.scrub_status("tank").state == "finished"


def test_it_satisfies_the_engine_protocol(engine: SandboxZfsEngine) -> None:
    assert isinstance(engine, ZfsEngine)


def test_offline_degrades_the_pool_and_online_restores_it(engine: SandboxZfsEngine) -> None:
    mirror(engine).offline_disk("tank", "sda")
    status = engine.pool_status("tank")
    assert (status.state, status.vdevs[0].state) == ("DEGRADED", "DEGRADED")
    assert leaves(engine) == {"sda": "OFFLINE", "sdb": "ONLINE"}
    assert "taken offline by the administrator" in status.status

    engine.online_disk("tank", "/dev/sda")
    assert engine.pool_status("tank").state == "ONLINE"


def test_offlining_the_last_copy_is_refused(engine: SandboxZfsEngine) -> None:
    mirror(engine).offline_disk("tank", "sda")
    with pytest.raises(NoValidReplicas, match="no valid replicas"):
        engine.offline_disk("tank", "sdb")


def test_a_raidz1_survives_one_offline_disk_only(engine: SandboxZfsEngine) -> None:
    engine.create_pool("tank", PoolLayout.single("raidz1", ["sda", "sdb", "sdc"]))
    engine.offline_disk("tank", "sda", temporary=True)
    with pytest.raises(NoValidReplicas):
        engine.offline_disk("tank", "sdb")


def test_a_disk_outside_the_pool_is_not_found(engine: SandboxZfsEngine) -> None:
    with pytest.raises(DeviceNotFound, match="no such device in pool"):
        mirror(engine).offline_disk("tank", "sdh")


def test_replace_resilvers_then_the_old_disk_leaves(engine: SandboxZfsEngine, clock: Clock) -> None:
    mirror(engine).offline_disk("tank", "sdb")
    engine.replace_disk("tank", "sdb", "sdc")

    status = engine.pool_status("tank")
    replacing = status.vdevs[0].children[1]
    assert (replacing.type, [c.name for c in replacing.children]) == ("replacing", ["sdb", "sdc"])
    assert replacing.children[1].note == "(resilvering)"
    assert (status.scan.function, status.scan.state) == ("resilver", "scanning")
    usage = {d.name: d.pool for d in engine.disk_usage()}
    assert usage["sdb"] == usage["sdc"] == "tank"

    finish_resilver(engine, clock)
    status = engine.pool_status("tank")
    assert status.state == "ONLINE"
    assert leaves(engine) == {"sda": "ONLINE", "sdc": "ONLINE"}
    assert "resilvered" in status.scan.text
    assert {d.name: d.pool for d in engine.disk_usage()}["sdb"] is None


def test_replace_refuses_a_smaller_disk(engine: SandboxZfsEngine) -> None:
    mirror(engine)
    os.truncate(engine.shelf.path("sdc"), GIB)
    with pytest.raises(DeviceTooSmall, match="device is too small"):
        engine.replace_disk("tank", "sda", "sdc")
    with pytest.raises(DeviceTooSmall):
        engine.attach_disk("tank", "sda", "sdc")


def test_replace_refuses_a_disk_in_use(engine: SandboxZfsEngine) -> None:
    mirror(engine)
    with pytest.raises(DeviceInUse):
        engine.replace_disk("tank", "sda", "sdb")


def test_attach_turns_a_single_disk_into_a_mirror(engine: SandboxZfsEngine, clock: Clock) -> None:
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    size = engine.get_pool("tank").size
    engine.attach_disk("tank", "sda", "sdb")
    finish_resilver(engine, clock)

    status = engine.pool_status("tank")
    assert [(v.type, [c.name for c in v.children]) for v in status.vdevs] == [
        ("mirror", ["sda", "sdb"])
    ]
    assert engine.get_pool("tank").size == size


def test_attach_to_a_raidz_is_refused(engine: SandboxZfsEngine) -> None:
    engine.create_pool("tank", PoolLayout.single("raidz1", ["sda", "sdb", "sdc"]))
    with pytest.raises(NotAttachable, match="can only attach to mirrors and top-level disks"):
        engine.attach_disk("tank", "sda", "sdd")


def test_detach_leaves_a_single_disk_and_never_the_last_copy(engine: SandboxZfsEngine) -> None:
    mirror(engine).detach_disk("tank", "sdb")
    status = engine.pool_status("tank")
    assert [(v.name, v.type) for v in status.vdevs] == [("sda", "disk")]
    with pytest.raises(NotDetachable, match="only applicable to mirror and replacing vdevs"):
        engine.detach_disk("tank", "sda")


def test_detaching_the_only_healthy_side_is_refused(engine: SandboxZfsEngine) -> None:
    mirror(engine).offline_disk("tank", "sda")
    with pytest.raises(NoValidReplicas):
        engine.detach_disk("tank", "sdb")


def test_detaching_the_new_disk_cancels_a_replacement(engine: SandboxZfsEngine) -> None:
    mirror(engine).replace_disk("tank", "sdb", "sdc")
    engine.detach_disk("tank", "sdc")
    assert leaves(engine) == {"sda": "ONLINE", "sdb": "ONLINE"}


def test_add_vdev_grows_the_pool(engine: SandboxZfsEngine) -> None:
    size = mirror(engine).get_pool("tank").size
    engine.add_vdev("tank", "mirror", ["sdc", "sdd"])
    assert engine.get_pool("tank").size == 2 * size
    assert [v.name for v in engine.pool_status("tank").vdevs] == ["mirror-0", "mirror-1"]


@pytest.mark.parametrize(
    ("vdev_type", "disks", "words"),
    [
        ("stripe", ["sdc"], "pool uses mirror and new vdev is disk"),
        ("mirror", ["sdc", "sdd", "sde"], "pool uses 2-way mirror and new vdev uses 3-way mirror"),
        ("raidz1", ["sdc", "sdd", "sde"], "pool uses mirror and new vdev is raidz"),
    ],
)
def test_add_vdev_refuses_a_mismatched_replication_level(
    engine: SandboxZfsEngine, vdev_type: str, disks: list[str], words: str
) -> None:
    with pytest.raises(ReplicationMismatch, match=words):
        mirror(engine).add_vdev("tank", vdev_type, disks)


def test_spares_log_and_cache_come_and_go(engine: SandboxZfsEngine) -> None:
    mirror(engine)
    engine.add_aux("tank", "spare", ["sdc"])
    engine.add_aux("tank", "log", ["sdd"])
    engine.add_aux("tank", "cache", ["sde"])
    status = engine.pool_status("tank")
    assert [(v.name, v.state) for v in status.spares] == [("sdc", "AVAIL")]
    assert [v.name for v in status.logs + status.cache] == ["sdd", "sde"]

    for disk in ("sdc", "sdd", "sde"):
        engine.remove_aux("tank", disk)
    status = engine.pool_status("tank")
    assert status.spares == status.logs == status.cache == ()


def test_a_mirrored_log_is_removed_by_its_vdev_name(engine: SandboxZfsEngine) -> None:
    mirror(engine).add_aux("tank", "log", ["sdc", "sdd"], mirror=True)
    assert [v.name for v in engine.pool_status("tank").logs] == ["mirror-1"]
    engine.remove_aux("tank", "mirror-1")
    assert engine.pool_status("tank").logs == ()


def test_remove_aux_refuses_a_data_disk(engine: SandboxZfsEngine) -> None:
    with pytest.raises(ZfsError, match="only spare, cache and log"):
        mirror(engine).remove_aux("tank", "sda")


def test_a_hot_spare_can_replace_a_disk(engine: SandboxZfsEngine, clock: Clock) -> None:
    mirror(engine).add_aux("tank", "spare", ["sdc"])
    engine.offline_disk("tank", "sda")
    engine.replace_disk("tank", "sda", "sdc")
    finish_resilver(engine, clock)
    status = engine.pool_status("tank")
    assert (status.state, status.spares) == ("ONLINE", ())
    assert leaves(engine) == {"sdc": "ONLINE", "sdb": "ONLINE"}


def test_a_resilver_blocks_a_scrub_and_cannot_be_canceled(engine: SandboxZfsEngine) -> None:
    mirror(engine).replace_disk("tank", "sdb", "sdc")
    with pytest.raises(ZfsError, match="currently resilvering"):
        engine.scrub_start("tank")
    assert engine.scrub_stop("tank") is False
    assert engine.scrub_status("tank").state == "scanning"


def test_a_cache_disk_is_not_replaced(engine: SandboxZfsEngine) -> None:
    mirror(engine).add_aux("tank", "cache", ["sdc"])
    with pytest.raises(ZfsError, match="removed and added"):
        engine.replace_disk("tank", "sdc", "sdd")

"""Disk lifecycle on real OpenZFS: offline, replace, attach, detach, add vdevs, refusals."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from vmhelpers import OUT, DiskPool, wait_for

from storage.zfs import resilver
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.devices import short
from storage.zfs.errors import (
    DeviceInUse,
    DeviceTooSmall,
    NotAttachable,
    NotDetachable,
    NoValidReplicas,
    ReplicationMismatch,
    ZfsError,
)

MIB = 1024 * 1024


def leaves(engine: CliZfsEngine, pool: str) -> dict[str, str]:
    status = engine.pool_status(pool)
    return {leaf.name: leaf.state for v in status.vdevs for leaf in v.leaves}


def resilvered(engine: CliZfsEngine, pool: str) -> bool:
    status = engine.pool_status(pool)
    replacing = any(v.type == "replacing" for top in status.vdevs for v in (top, *top.children))
    return status.scan.state == "finished" and not replacing


def write_random(path: Path, size: int) -> str:
    data = os.urandom(size)
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def test_offline_then_replace_resilvers_to_online_with_the_data_intact(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    first, second, spare = disk_pool.take(3)
    pool = disk_pool.create("plife", PoolLayout.single("mirror", [first, second]))
    digest = write_random(Path("/plife/blob"), 48 * MIB)
    engine.settle(pool)

    engine.offline_disk(pool, first)
    status = engine.pool_status(pool)
    assert status.state == "DEGRADED"
    assert leaves(engine, pool)[short(first)] == "OFFLINE"
    with pytest.raises(NoValidReplicas):
        engine.offline_disk(pool, second)

    engine.replace_disk(pool, first, spare)
    scan = engine.pool_status(pool).scan
    assert scan.function == "resilver"
    assert wait_for(lambda: resilvered(engine, pool), timeout=300)
    assert engine.pool_status(pool).state == "ONLINE"
    assert leaves(engine, pool) == {short(second): "ONLINE", short(spare): "ONLINE"}

    # Prove the new disk holds the data: re-import (no cached blocks), then read it alone.
    engine.export_pool(pool)
    engine.import_pool(pool)
    engine.offline_disk(pool, second)
    assert hashlib.sha256(Path("/plife/blob").read_bytes()).hexdigest() == digest


def test_replace_refuses_a_smaller_device_and_a_disk_in_use(
    engine: CliZfsEngine, disk_pool: DiskPool, tmp_path: Path
) -> None:
    disks = disk_pool.take(2)
    pool = disk_pool.create("psmall", PoolLayout.single("mirror", disks))
    small = tmp_path / "small.img"
    with small.open("wb") as handle:
        handle.truncate(256 * MIB)  # sparse: a 256 MiB "disk" beside the 1 GiB ones

    with pytest.raises(DeviceTooSmall, match="device is too small"):
        engine.replace_disk(pool, disks[0], str(small))
    with pytest.raises(DeviceTooSmall):
        engine.attach_disk(pool, disks[0], str(small))
    with pytest.raises(DeviceInUse):
        engine.replace_disk(pool, disks[0], disks[1])


def test_attach_turns_a_single_disk_into_a_mirror_and_detach_undoes_it(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    one, other = disk_pool.take(2)
    pool = disk_pool.create("pattach", PoolLayout.single("stripe", [one]))
    size = engine.get_pool(pool).size
    with pytest.raises(NoValidReplicas):
        engine.offline_disk(pool, one)

    engine.attach_disk(pool, one, other)
    assert wait_for(lambda: resilvered(engine, pool), timeout=300)
    status = engine.pool_status(pool)
    assert [(v.type, [c.name for c in v.children]) for v in status.vdevs] == [
        ("mirror", [short(one), short(other)])
    ]
    assert engine.get_pool(pool).size == size

    engine.detach_disk(pool, other)
    assert [(v.name, v.type) for v in engine.pool_status(pool).vdevs] == [(short(one), "disk")]
    with pytest.raises(NotDetachable, match="only applicable to mirror and replacing vdevs"):
        engine.detach_disk(pool, one)


def test_add_vdev_grows_the_pool_and_refuses_another_shape(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    disks = disk_pool.take(5)
    pool = disk_pool.create("pgrow", PoolLayout.single("mirror", disks[:2]))
    size = engine.get_pool(pool).size

    with pytest.raises(ReplicationMismatch, match="pool uses mirror and new vdev is disk"):
        engine.add_vdev(pool, "stripe", [disks[2]])
    # OpenZFS itself says so too (the engine checks first; this is its own refusal)
    with pytest.raises(ReplicationMismatch, match="mismatched replication level"):
        engine.run(["zpool", "add", pool, disks[2]])
    # OpenZFS 2.1 would take a raidz1 beside mirrors (same redundancy): the panel does not
    with pytest.raises(ReplicationMismatch, match="new vdev is raidz"):
        engine.add_vdev(pool, "raidz1", disks[2:5])

    engine.add_vdev(pool, "mirror", disks[2:4])
    assert [v.type for v in engine.pool_status(pool).vdevs] == ["mirror", "mirror"]
    assert engine.get_pool(pool).size > 1.9 * size


def test_attach_to_a_raidz_member_is_refused(engine: CliZfsEngine, disk_pool: DiskPool) -> None:
    disks = disk_pool.take(4)
    pool = disk_pool.create("prz", PoolLayout.single("raidz1", disks[:3]))
    with pytest.raises(NotAttachable, match="can only attach to mirrors and top-level disks"):
        engine.attach_disk(pool, disks[0], disks[3])
    with pytest.raises(NotDetachable):
        engine.detach_disk(pool, disks[0])
    engine.offline_disk(pool, disks[0])
    with pytest.raises(NoValidReplicas):
        engine.offline_disk(pool, disks[1])


def test_spares_log_and_cache_are_added_and_removed(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    data = disk_pool.take(2)
    spare, log, cache = disk_pool.take(3)
    pool = disk_pool.create("paux2", PoolLayout.single("mirror", data))
    engine.add_aux(pool, "spare", [spare])
    engine.add_aux(pool, "log", [log])
    engine.add_aux(pool, "cache", [cache])
    status = engine.pool_status(pool)
    assert [(v.name, v.state) for v in status.spares] == [(short(spare), "AVAIL")]
    assert [v.name for v in status.logs + status.cache] == [short(log), short(cache)]

    with pytest.raises(ZfsError, match="only spare, cache and log"):
        engine.remove_aux(pool, data[0])
    for disk in (spare, log, cache):
        engine.remove_aux(pool, disk)
    status = engine.pool_status(pool)
    assert status.spares == status.logs == status.cache == ()


def test_a_hot_spare_replaces_a_disk_and_the_resilver_job_logic_follows_it(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    first, second, spare = disk_pool.take(3)
    pool = disk_pool.create("pspare", PoolLayout.single("mirror", [first, second]))
    write_random(Path("/pspare/blob"), 96 * MIB)
    engine.settle(pool)
    engine.add_aux(pool, "spare", [spare])
    engine.offline_disk(pool, first)

    engine.replace_disk(pool, first, spare)
    during = engine.run(["zpool", "status", "-p", pool]).stdout
    reports: list[tuple[int, str]] = []
    scan = resilver.follow(engine, pool, spare, lambda *r: reports.append(r), timeout=300)
    after = engine.run(["zpool", "status", "-p", pool]).stdout
    result = resilver.finish(
        engine, pool=pool, disk=first, new_disk=spare, hot_spare=True, report=lambda *r: None
    )
    (OUT / "disks_spare_resilvering.txt").write_text(during)  # for tests/zfs/fixtures/disks
    (OUT / "disks_spare_resilvered.txt").write_text(after)

    assert scan.function == "resilver"
    assert all("% done" in message for _pct, message in reports)
    assert result["state"] == "ONLINE"
    status = engine.pool_status(pool)
    assert status.spares == ()
    assert leaves(engine, pool) == {short(second): "ONLINE", short(spare): "ONLINE"}

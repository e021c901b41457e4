"""Sandbox engine: pools, layouts, disks, export/import, scrub, persistence (no Django)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout, ZfsEngine
from storage.zfs.errors import (
    DeviceInUse,
    DeviceNotFound,
    InvalidLayout,
    PoolBusy,
    PoolExists,
    PoolNotFound,
    ZfsUnavailable,
)
from storage.zfs.sandbox import DISK_MODEL, SandboxZfsEngine
from storage.zfs.sandbox.layout import disk_space, slop

GIB = 1024**3
DISK = disk_space(2 * GIB)  # what one 2 GiB sandbox disk gives a vdev


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


def test_it_satisfies_the_engine_protocol(engine):
    assert isinstance(engine, ZfsEngine)


def test_it_reports_a_sandbox_version(engine):
    assert engine.version().userland == "sandbox-1"
    assert engine.version().kernel == "sandbox-1"


def test_it_lists_sparse_disks_with_stable_serials(engine, tmp_path):
    disks = engine.list_disks()
    assert [d.name for d in disks][:3] == ["sda", "sdb", "sdc"]
    assert all(d.model == DISK_MODEL and d.size == 2 * GIB and not d.in_use for d in disks)
    image = Path(disks[0].path)
    assert image.stat().st_blocks == 0  # sparse: no space used
    again = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=8).list_disks()
    assert [d.serial for d in again] == [d.serial for d in disks]


def test_it_marks_the_disks_a_pool_uses(engine):
    engine.create_pool("tank", PoolLayout.single("mirror", ["sda", "sdb"]))
    usage = {d.name: d.pool for d in engine.disk_usage()}
    assert usage["sda"] == usage["sdb"] == "tank"
    assert usage["sdc"] is None
    assert {d.name for d in engine.list_disks() if d.fstype == "zfs_member"} == {"sda", "sdb"}


@pytest.mark.parametrize(
    ("layout", "expected_size", "usable_disks"),
    [
        (PoolLayout.single("stripe", ["sda", "sdb", "sdc"]), 3 * DISK, 3),
        (PoolLayout.single("mirror", ["sda", "sdb"]), DISK, 1),
        (PoolLayout("mirror", (("sda", "sdb"), ("sdc", "sdd"))), 2 * DISK, 2),
        (PoolLayout.single("raidz1", ["sda", "sdb", "sdc"]), 3 * DISK, 2),
        (PoolLayout("raidz1", (("sda", "sdb", "sdc"), ("sdd", "sde", "sdf"))), 6 * DISK, 4),
        (PoolLayout.single("raidz2", ["sda", "sdb", "sdc", "sdd", "sde", "sdf"]), 6 * DISK, 4),
        (PoolLayout.single("raidz3", ["sda", "sdb", "sdc", "sdd", "sde"]), 5 * DISK, 2),
    ],
)
def test_usable_capacity_follows_the_layout(engine, layout, expected_size, usable_disks):
    engine.create_pool("tank", layout)
    # zpool list SIZE counts one side of a mirror but every disk of a raidz (parity included).
    assert engine.get_pool("tank").size == expected_size
    root = engine.get_dataset("tank")
    capacity = root.used + root.available
    expected = usable_disks * DISK
    expected -= slop(expected)
    # raidz padding makes the real figure a little lower than (width - parity) disks.
    assert expected * 0.97 <= capacity <= expected


def test_cache_log_and_spares_add_no_capacity(engine):
    plain = PoolLayout.single("mirror", ["sda", "sdb"])
    engine.create_pool("plain", plain)
    extra = PoolLayout.single("mirror", ["sdc", "sdd"], cache=["sde"], log=["sdf"], spares=["sdg"])
    engine.create_pool("extra", extra)
    assert engine.get_pool("extra").size == engine.get_pool("plain").size
    status = engine.pool_status("extra")
    assert [v.name for v in status.vdevs] == ["mirror-0"]
    assert [v.name for v in status.vdevs[0].children] == ["sdc", "sdd"]
    assert [v.name for v in status.logs] == ["sdf"]
    assert [v.name for v in status.cache] == ["sde"]
    assert [(v.name, v.state) for v in status.spares] == [("sdg", "AVAIL")]
    assert status.root is not None
    assert status.root.type == "root"


def test_a_pool_gets_the_panel_defaults(engine):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    props = engine.get_properties("tank", ["compression", "atime"])
    assert props["compression"].value == "lz4"
    assert props["compression"].source == "local"
    assert props["atime"].value == "off"
    pool = engine.get_pool("tank")
    assert (pool.health, pool.allocated, pool.capacity, pool.dedupratio) == ("ONLINE", 0, 0, 1.0)


def test_a_disk_in_use_by_another_pool_is_refused(engine):
    engine.create_pool("tank", PoolLayout.single("mirror", ["sda", "sdb"]))
    with pytest.raises(DeviceInUse, match="sdb"):
        engine.create_pool("other", PoolLayout.single("mirror", ["sdb", "sdc"]))


def test_a_disk_of_an_exported_pool_needs_force(engine):
    engine.create_pool("old", PoolLayout.single("stripe", ["sda"]))
    engine.export_pool("old")
    with pytest.raises(DeviceInUse, match="exported pool"):
        engine.create_pool("new", PoolLayout.single("stripe", ["sda"]))
    engine.create_pool("new", PoolLayout.single("stripe", ["sda"]), force=True)
    assert engine.importable_pools() == []


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        (PoolLayout.single("mirror", ["sda"]), "at least 2"),
        (PoolLayout.single("raidz1", ["sda", "sdb"]), "at least 3"),
        (PoolLayout.single("raidz2", ["sda", "sdb", "sdc"]), "at least 4"),
        (PoolLayout("mirror", (("sda", "sdb"), ("sdc", "sdd", "sde"))), "same number"),
        (PoolLayout.single("mirror", ["sda", "sda"]), "more than once"),
    ],
)
def test_layout_rules_are_enforced(engine, layout, message):
    with pytest.raises(InvalidLayout, match=message):
        engine.create_pool("tank", layout)


def test_an_unknown_disk_is_refused(engine):
    with pytest.raises(DeviceNotFound):
        engine.create_pool("tank", PoolLayout.single("stripe", ["sdz"]))


def test_disks_may_be_named_by_path(engine):
    path = engine.list_disks()[0].path
    engine.create_pool("tank", PoolLayout.single("stripe", [path, "/dev/sdb"]))
    assert [v.name for v in engine.pool_status("tank").vdevs] == ["sda", "sdb"]


def test_a_second_pool_with_the_same_name_is_refused(engine):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    with pytest.raises(PoolExists):
        engine.create_pool("tank", PoolLayout.single("stripe", ["sdb"]))


def test_destroy_removes_the_pool_and_frees_its_disks(engine):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    mountpoint = Path(engine.get_dataset("tank").mountpoint or "")
    engine.destroy_pool("tank")
    assert engine.list_pools() == []
    assert not mountpoint.exists()
    assert not any(d.in_use for d in engine.list_disks())
    with pytest.raises(PoolNotFound):
        engine.get_pool("tank")


def test_export_hides_the_pool_and_import_brings_it_back_renamed(engine):
    engine.create_pool("tank", PoolLayout.single("mirror", ["sda", "sdb"]))
    engine.create_dataset("tank/docs")
    Path(engine.get_dataset("tank/docs").mountpoint or "", "a.txt").write_text("kept")
    engine.export_pool("tank")
    assert engine.list_pools() == []
    found = engine.importable_pools()
    assert [(p.name, p.state) for p in found] == [("tank", "ONLINE")]
    assert {d.name for d in engine.list_disks() if d.fstype == "zfs_member"} == {"sda", "sdb"}
    engine.import_pool("tank", new_name="vault")
    assert [p.name for p in engine.list_pools()] == ["vault"]
    docs = engine.get_dataset("vault/docs")
    assert Path(docs.mountpoint or "", "a.txt").read_text() == "kept"
    assert engine.importable_pools() == []


def test_import_by_guid_and_unknown_names(engine):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    guid = engine.get_pool("tank").guid
    engine.export_pool("tank")
    with pytest.raises(PoolNotFound):
        engine.import_pool("nothing")
    engine.import_pool(guid)
    assert engine.get_pool("tank").guid == guid


def test_import_refuses_a_name_already_taken(engine):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    engine.export_pool("tank")
    engine.create_pool("tank", PoolLayout.single("stripe", ["sdb"]))
    with pytest.raises(PoolExists):
        engine.import_pool("tank")
    engine.import_pool("tank", new_name="tank2")
    assert [p.name for p in engine.list_pools()] == ["tank", "tank2"]


def test_export_refuses_while_a_zvol_is_open(engine):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    engine.create_zvol("tank/vol", size=1 << 20, sparse=True)
    # The open file plays tgt serving the zvol.
    with open(engine.zvol_path("tank/vol"), "rb"), pytest.raises(PoolBusy, match="busy"):
        engine.export_pool("tank")
    engine.export_pool("tank")


def test_scrub_progresses_and_finishes(engine, clock):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    assert engine.scrub_status("tank").state == "none"
    engine.scrub_start("tank")
    clock.now += 1.0
    running = engine.scrub_status("tank")
    assert running.state == "scanning"
    assert 0 < (running.percent_done or 0) < 100
    with pytest.raises(PoolBusy):
        engine.scrub_start("tank")
    clock.now += 60
    done = engine.scrub_status("tank")
    assert (done.state, done.percent_done, done.errors) == ("finished", 100.0, 0)
    assert "with 0 errors" in done.text
    assert engine.pool_status("tank").scan.state == "finished"


def test_scrub_can_be_stopped(engine, clock):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    assert engine.scrub_stop("tank") is False
    engine.scrub_start("tank")
    clock.now += 0.5
    assert engine.scrub_stop("tank") is True
    assert engine.scrub_status("tank").state == "canceled"


def test_scrub_time_grows_with_allocated_bytes(engine, clock):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    data = Path(engine.get_dataset("tank").mountpoint or "")
    (data / "big").write_bytes(__import__("os").urandom(8 << 20))
    engine.rescan()
    engine.scrub_start("tank")
    clock.now += 2.0
    assert engine.scrub_status("tank").state == "scanning"  # 2 s + 8 MiB at 256 MiB/s


def test_state_persists_for_another_process(engine, tmp_path):
    engine.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    engine.create_dataset("tank/a", properties={"compression": "zstd"})
    other = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=8)
    assert other.get_dataset("tank/a").compression == "zstd"


def test_arcstats_are_not_available(engine):
    with pytest.raises(ZfsUnavailable):
        engine.arcstats()


def test_unknown_pools_raise_pool_not_found(engine):
    for call in (engine.get_pool, engine.pool_status, engine.dedup_table, engine.scrub_status):
        with pytest.raises(PoolNotFound):
            call("ghost")

"""Pools in every layout, created by the cli engine on real OpenZFS."""

from __future__ import annotations

import subprocess

import pytest
from vmhelpers import DiskPool

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import DeviceInUse, InvalidLayout, PoolExists, PoolNotFound

# layout name -> (vdev type, disks per vdev, number of data vdevs, expected top-level types)
LAYOUTS = {
    "stripe": ("stripe", 1, 2, ["disk", "disk"]),
    "mirror": ("mirror", 2, 1, ["mirror"]),
    "raid10": ("mirror", 2, 2, ["mirror", "mirror"]),
    "raidz1": ("raidz1", 3, 1, ["raidz1"]),
    "raidz2": ("raidz2", 4, 1, ["raidz2"]),
    "raidz3": ("raidz3", 5, 1, ["raidz3"]),
}


def _layout(disk_pool: DiskPool, vdev_type: str, width: int, count: int) -> PoolLayout:
    disks = disk_pool.take(width * count)
    groups = tuple(tuple(disks[i * width : (i + 1) * width]) for i in range(count))
    return PoolLayout(type=vdev_type, groups=groups)


@pytest.mark.parametrize("kind", list(LAYOUTS))
def test_it_creates_each_layout_with_panel_defaults(
    engine: CliZfsEngine, disk_pool: DiskPool, kind: str
) -> None:
    vdev_type, width, count, top_types = LAYOUTS[kind]
    layout = _layout(disk_pool, vdev_type, width, count)
    name = disk_pool.create(f"p{kind}", layout)

    status = engine.pool_status(name)
    assert status.state == "ONLINE"
    assert [v.type for v in status.vdevs] == top_types
    leaves = [leaf.name for v in status.vdevs for leaf in v.leaves]
    assert len(leaves) == width * count
    assert all(leaf.state == "ONLINE" for v in status.vdevs for leaf in v.leaves)
    assert engine.get_pool_properties(name, ["ashift"])["ashift"] == "12"
    root = engine.get_dataset(name)
    assert (root.compression, root.atime) == ("lz4", False)
    pool = engine.get_pool(name)
    assert pool.ashift == 12
    assert [p.ashift for p in engine.list_pools() if p.name == name] == [12]
    assert pool.health == "ONLINE"
    assert pool.size > 0
    assert pool.dedupratio == 1.0


def test_it_builds_log_cache_and_spare_vdevs(engine: CliZfsEngine, disk_pool: DiskPool) -> None:
    data, log, cache, spare = (
        disk_pool.take(2),
        disk_pool.take(1),
        disk_pool.take(1),
        disk_pool.take(1),
    )
    layout = PoolLayout(
        type="mirror",
        groups=(tuple(data),),
        log=tuple(log),
        cache=tuple(cache),
        spares=tuple(spare),
    )
    name = disk_pool.create("paux", layout)

    status = engine.pool_status(name)
    assert [v.type for v in status.vdevs] == ["mirror"]
    assert len(status.logs) == 1
    assert len(status.cache) == 1
    assert len(status.spares) == 1
    assert status.spares[0].state == "AVAIL"
    assert status.scan.state == "none"


def test_it_refuses_a_second_pool_of_the_same_name(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    first, second = disk_pool.take(1), disk_pool.take(1)
    disk_pool.create("pdup", PoolLayout.single("stripe", first))

    with pytest.raises(PoolExists) as err:
        engine.create_pool("pdup", PoolLayout.single("stripe", second))
    assert "pdup" in err.value.stderr
    assert err.value.argv[:2] == ("zpool", "create")


def test_it_refuses_a_disk_that_belongs_to_another_pool(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    disks = disk_pool.take(1)
    disk_pool.create("pbusy", PoolLayout.single("stripe", disks))

    # zpool sees the GPT it wrote on the whole disk: "/dev/vda is in use and contains a ..."
    with pytest.raises(DeviceInUse) as err:
        disk_pool.create("pother", PoolLayout.single("stripe", disks))
    assert disks[0] in err.value.stderr
    with pytest.raises(DeviceInUse):  # -f does not override an active pool
        disk_pool.create("pother", PoolLayout.single("stripe", disks), force=True)
    assert engine.get_pool("pbusy").health == "ONLINE"


def test_it_validates_a_layout_before_running_anything(engine: CliZfsEngine) -> None:
    with pytest.raises(InvalidLayout):
        engine.create_pool("pbad", PoolLayout.single("raidz2", ["/dev/vda", "/dev/vdb"]))
    with pytest.raises(PoolNotFound):
        engine.get_pool("pbad")


def test_it_destroys_a_pool(engine: CliZfsEngine, disk_pool: DiskPool) -> None:
    name = disk_pool.create("pgone", PoolLayout.single("stripe", disk_pool.take(1)))
    engine.destroy_pool(name)

    assert name not in [p.name for p in engine.list_pools()]
    with pytest.raises(PoolNotFound) as err:
        engine.pool_status(name)
    assert "no such pool" in err.value.stderr


def test_it_imports_a_pool_created_outside_the_panel(
    engine: CliZfsEngine, disk_pool: DiskPool
) -> None:
    disks = disk_pool.take(2)
    # made by hand with raw zpool, no panel defaults, then exported as another system would
    subprocess.run(["zpool", "create", "-f", "foreign", "mirror", *disks], check=True, timeout=120)
    subprocess.run(["zfs", "create", "foreign/data"], check=True, timeout=60)
    subprocess.run(["zpool", "export", "foreign"], check=True, timeout=120)
    disk_pool.pools += ["foreign", "renamed"]

    found = {p.name: p for p in engine.importable_pools()}
    assert "foreign" in found
    pool = found["foreign"]
    assert pool.state == "ONLINE"
    assert pool.guid.isdigit()
    assert [v.type for v in pool.vdevs] == ["mirror"]
    assert len(pool.vdevs[0].children) == 2

    engine.import_pool(pool.guid, new_name="renamed")
    assert [d.name for d in engine.list_datasets("renamed")] == ["renamed", "renamed/data"]
    engine.export_pool("renamed")
    assert "renamed" in [p.name for p in engine.importable_pools()]
    engine.import_pool("renamed")
    assert engine.get_pool("renamed").health == "ONLINE"
    # made without -o ashift: the property reads 0 (each vdev chose its own), shown as None
    assert engine.get_pool_properties("renamed", ["ashift"])["ashift"] == "0"
    assert engine.get_pool("renamed").ashift is None


def test_it_reports_nothing_to_import_as_an_empty_list(engine: CliZfsEngine) -> None:
    assert [p for p in engine.importable_pools() if p.name.startswith("p")] == []


def test_it_raises_pool_not_found_for_an_unknown_import(engine: CliZfsEngine) -> None:
    with pytest.raises(PoolNotFound) as err:
        engine.import_pool("nosuchpool")
    assert err.value.argv[:2] == ("zpool", "import")

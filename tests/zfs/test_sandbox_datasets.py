"""Sandbox engine: datasets and zvols, properties, inheritance, sizes (no Django)."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout
from storage.zfs.errors import (
    DatasetBusy,
    DatasetExists,
    DatasetNotFound,
    HasChildren,
    InvalidProperty,
    NoSpace,
    VolumeShrink,
    ZfsError,
)
from storage.zfs.sandbox import SandboxZfsEngine

GIB = 1024**3
MIB = 1024**2


@pytest.fixture
def engine(tmp_path: Path) -> SandboxZfsEngine:
    sandbox = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=4, disk_size=2 * GIB)
    sandbox.create_pool("tank", PoolLayout.single("mirror", ["sda", "sdb"]))
    return sandbox


def test_a_dataset_is_a_directory_mounted_at_its_data_dir(engine):
    engine.create_dataset("tank/docs")
    docs = engine.get_dataset("tank/docs")
    assert docs.type == "filesystem"
    assert docs.mountpoint is not None
    assert Path(docs.mountpoint).is_dir()
    assert (docs.recordsize, docs.compression, docs.atime) == (131072, "lz4", False)


def test_creating_twice_or_without_parent_is_refused(engine):
    engine.create_dataset("tank/docs")
    with pytest.raises(DatasetExists):
        engine.create_dataset("tank/docs")
    with pytest.raises(DatasetNotFound, match="parent does not exist"):
        engine.create_dataset("tank/missing/child")


def test_invalid_names_are_refused(engine):
    for bad in ("tank/..", "tank/a/.", "tank//a", "tank/a b", "9tank/a"):
        with pytest.raises(InvalidProperty):
            engine.create_dataset(bad)


def test_properties_are_inherited_with_their_sources(engine):
    engine.create_dataset("tank/a", properties={"compression": "gzip-9", "nasui:comment": "hi"})
    engine.create_dataset("tank/a/b")
    props = engine.get_properties("tank/a/b")
    assert props["compression"].value == "gzip-9"
    assert props["compression"].source == "inherited from tank/a"
    assert props["atime"].source == "inherited from tank"
    assert props["recordsize"].source == "default"
    assert props["nasui:comment"].value == "hi"
    assert props["used"].source == "-"
    assert engine.get_dataset("tank/a/b").comment == "hi"


def test_inherit_drops_the_local_value(engine):
    engine.create_dataset("tank/a", properties={"compression": "zstd-7"})
    engine.create_dataset("tank/a/b", properties={"compression": "off"})
    engine.inherit_property("tank/a", "compression", recursive=True)
    assert engine.get_properties("tank/a/b", ["compression"])["compression"].value == "lz4"
    with pytest.raises(InvalidProperty, match="cannot be inherited"):
        engine.inherit_property("tank/a", "quota")


def test_gzip_6_reads_back_as_gzip(engine):
    engine.create_dataset("tank/a", properties={"compression": "gzip-6"})
    assert engine.get_dataset("tank/a").compression == "gzip"
    engine.set_properties("tank/a", {"compression": "gzip-1"})
    assert engine.get_dataset("tank/a").compression == "gzip-1"


@pytest.mark.parametrize(
    ("props", "message"),
    [
        ({"compression": "brotli"}, r"compression.*one of off, on, lz4, gzip"),
        ({"dedup": "maybe"}, r"dedup.*one of"),
        ({"recordsize": "3000"}, r"recordsize must be a power of 2 from 512 to 1M"),
        ({"recordsize": "2M"}, r"recordsize must be a power of 2"),
        ({"atime": "sometimes"}, r"atime.*on, off"),
        ({"quota": "lots"}, r"quota"),
        ({"used": "1"}, r"read-only"),
        ({"colour": "blue"}, r"invalid property 'colour'"),
        ({"volsize": "1G"}, r"does not apply"),
    ],
)
def test_invalid_properties_name_the_property_and_rule(engine, props, message):
    with pytest.raises(InvalidProperty, match=message):
        engine.create_dataset("tank/a", properties=props)
    with pytest.raises(DatasetNotFound):
        engine.get_dataset("tank/a")  # nothing half-made


def test_set_properties_is_all_or_nothing(engine):
    engine.create_dataset("tank/a")
    with pytest.raises(InvalidProperty):
        engine.set_properties("tank/a", {"compression": "zle", "recordsize": "5"})
    assert engine.get_dataset("tank/a").compression == "lz4"
    engine.set_properties("tank/a", {"compression": "zle", "recordsize": "1M", "quota": "1G"})
    ds = engine.get_dataset("tank/a")
    assert (ds.compression, ds.recordsize, ds.quota) == ("zle", MIB, GIB)
    assert ds.available <= GIB
    engine.set_properties("tank/a", {"quota": "none"})
    assert engine.get_dataset("tank/a").quota is None


def test_destroy_needs_recursive_for_children(engine):
    engine.create_dataset("tank/a")
    engine.create_dataset("tank/a/b")
    engine.create_zvol("tank/a/vol", size=MIB, sparse=True)
    with pytest.raises(HasChildren):
        engine.destroy_dataset("tank/a")
    engine.destroy_dataset("tank/a", recursive=True)
    assert [d.name for d in engine.list_datasets("tank")] == ["tank"]
    with pytest.raises(ZfsError, match="root dataset"):
        engine.destroy_dataset("tank")


def test_list_datasets_is_recursive_and_sorted(engine):
    for name in ("tank/b", "tank/a", "tank/a/x"):
        engine.create_dataset(name)
    assert [d.name for d in engine.list_datasets("tank")] == [
        "tank",
        "tank/a",
        "tank/a/x",
        "tank/b",
    ]
    assert [d.name for d in engine.list_datasets("tank/a")] == ["tank/a", "tank/a/x"]
    with pytest.raises(DatasetNotFound):
        engine.list_datasets("tank/zzz")


def test_list_all_datasets_covers_every_imported_pool_in_tree_order(engine):
    engine.create_pool("alpha", PoolLayout.single("stripe", ["sdc"]))
    for name in ("tank/b", "tank/a-z", "tank/a", "tank/a/x", "alpha/v"):
        engine.create_dataset(name)
    every = [d.name for d in engine.list_all_datasets()]
    assert every == ["alpha", "alpha/v", "tank", "tank/a", "tank/a/x", "tank/a-z", "tank/b"]
    assert every == [d.name for p in ("alpha", "tank") for d in engine.list_datasets(p)]
    engine.export_pool("alpha")
    assert next(d.name for d in engine.list_all_datasets()) == "tank"


def test_a_thick_zvol_reserves_its_size(engine):
    before = engine.get_dataset("tank").available
    engine.create_zvol("tank/vol", size=256 * MIB, volblocksize=4096)
    vol = engine.get_dataset("tank/vol")
    path = engine.zvol_path("tank/vol")
    assert path.stat().st_size == 256 * MIB
    assert path.stat().st_blocks == 0
    assert (vol.volsize, vol.volblocksize, vol.refreservation, vol.sparse) == (
        256 * MIB,
        4096,
        256 * MIB,
        False,
    )
    assert vol.used == 256 * MIB  # the reservation counts as used, like ZFS
    assert engine.get_dataset("tank").available == before - 256 * MIB


def test_a_sparse_zvol_reserves_nothing_and_may_exceed_the_pool(engine):
    engine.create_zvol("tank/thin", size=100 * GIB, sparse=True)
    vol = engine.get_dataset("tank/thin")
    assert vol.sparse
    assert vol.used == 0
    assert vol.volblocksize == 16384


def test_a_thick_zvol_bigger_than_free_space_is_refused(engine):
    with pytest.raises(NoSpace):
        engine.create_zvol("tank/huge", size=4 * GIB)
    with pytest.raises(DatasetNotFound):
        engine.get_dataset("tank/huge")


def test_zvol_size_must_be_a_multiple_of_the_block_size(engine):
    with pytest.raises(InvalidProperty, match="multiple of volblocksize"):
        engine.create_zvol("tank/vol", size=10000, volblocksize=4096)
    with pytest.raises(InvalidProperty, match="volblocksize must be a power of 2"):
        engine.create_zvol("tank/vol", size=MIB, volblocksize=3000)


def test_grow_grows_the_file_and_refuses_to_shrink(engine):
    engine.create_zvol("tank/vol", size=64 * MIB)
    engine.grow_zvol("tank/vol", 128 * MIB)
    vol = engine.get_dataset("tank/vol")
    assert (vol.volsize, vol.refreservation) == (128 * MIB, 128 * MIB)
    assert engine.zvol_path("tank/vol").stat().st_size == 128 * MIB
    with pytest.raises(VolumeShrink):
        engine.grow_zvol("tank/vol", 64 * MIB)
    with pytest.raises(VolumeShrink):
        engine.set_properties("tank/vol", {"volsize": "32M"})
    with pytest.raises(NoSpace):
        engine.grow_zvol("tank/vol", 8 * GIB)


def test_volblocksize_is_fixed_after_creation(engine):
    engine.create_zvol("tank/vol", size=MIB, sparse=True)
    with pytest.raises(InvalidProperty, match="volblocksize"):
        engine.set_properties("tank/vol", {"volblocksize": "4K"})


def test_an_open_zvol_is_busy(engine):
    engine.create_zvol("tank/vol", size=MIB, sparse=True)
    with open(engine.zvol_path("tank/vol"), "rb"), pytest.raises(DatasetBusy):
        engine.destroy_dataset("tank/vol", force=True)
    engine.destroy_dataset("tank/vol")


def test_zvol_path_of_a_file_system_is_refused(engine):
    with pytest.raises(InvalidProperty, match="not a zvol"):
        engine.zvol_path("tank")


def _make_datasets(root: str, prefix: str, count: int) -> None:
    sandbox = SandboxZfsEngine(root=root, disk_count=4)
    for i in range(count):
        sandbox.create_dataset(f"tank/{prefix}{i}")


def test_two_processes_can_write_the_state_at_once(engine):
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_make_datasets, args=(str(engine.root), p, 15)) for p in "xy"]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert all(worker.exitcode == 0 for worker in workers)
    assert len(engine.list_datasets("tank")) == 31  # nothing lost to a race


def test_listing_a_thousand_datasets_is_fast(engine):
    with engine._state.transaction() as state:  # bulk set-up; the API path is timed below
        record = next(iter(state["pools"].values()))
        for i in range(1000):
            record["datasets"][f"d{i}"] = {"type": "filesystem", "props": {}, "usage": {}}
    started = time.perf_counter()
    listed = engine.list_datasets("tank")
    elapsed = time.perf_counter() - started
    assert len(listed) == 1001
    assert elapsed < 1.0


def test_a_zvol_too_large_for_the_sandbox_files_leaves_nothing_behind(engine, monkeypatch):
    import builtins

    real_open = builtins.open

    class RefusingFile:
        """A file whose truncate fails as ext4 does past 16 TiB."""

        def __init__(self, *args, **kwargs):
            self.inner = real_open(*args, **kwargs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.inner.close()

        def truncate(self, size):
            raise OSError(27, "File too large")

    monkeypatch.setattr("storage.zfs.sandbox.datasets.open", RefusingFile, raising=False)
    with pytest.raises(InvalidProperty, match="cannot hold a zvol this large"):
        engine.create_zvol("tank/huge", size=16 << 40, sparse=True)
    monkeypatch.undo()
    with pytest.raises(DatasetNotFound):
        engine.get_dataset("tank/huge")
    leftovers = [p for p in Path(engine.root).rglob("*") if "huge" in p.name]
    assert leftovers == [], leftovers


@pytest.mark.parametrize("prop", ["reservation", "refreservation"])
def test_a_new_dataset_cannot_reserve_more_than_the_pool_has(engine, prop):
    with pytest.raises(NoSpace, match="greater than available space"):
        engine.create_dataset("tank/greedy", properties={prop: str(1 << 50)})
    with pytest.raises(DatasetNotFound):
        engine.get_dataset("tank/greedy")
    assert engine.get_dataset("tank").available > 0


def test_a_sparse_zvol_cannot_carry_a_reservation_beyond_the_pool(engine):
    with pytest.raises(NoSpace):
        engine.create_zvol(
            "tank/vol", size=16 << 20, sparse=True, properties={"reservation": str(2**62)}
        )


def test_listings_are_computed_once_per_version_of_the_state(engine, monkeypatch):
    from storage.zfs.sandbox import figures

    computed = []
    real = figures.dataset

    def counted(*args):
        computed.append(args[2])
        return real(*args)

    monkeypatch.setattr(figures, "dataset", counted)
    first = engine.list_datasets("tank")
    assert engine.list_datasets("tank") == first
    assert engine.list_all_datasets() == first
    assert computed == ["", ""], "each listing once, however often it is asked for"
    engine.create_dataset("tank/new")
    assert [d.name for d in engine.list_datasets("tank")] == ["tank", "tank/new"]
    engine.set_properties("tank/new", {"compression": "zstd"})
    assert engine.list_all_datasets()[1].compression == "zstd"


def test_a_kept_listing_never_answers_for_another_root(engine):
    engine.list_all_datasets()
    with pytest.raises(InvalidProperty):
        engine.list_datasets("")
    with pytest.raises(DatasetNotFound):
        engine.list_datasets("tank/zzz")
    with pytest.raises(DatasetNotFound):
        engine.list_datasets("tank/zzz")

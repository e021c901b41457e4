"""Sandbox engine: space figures computed from the bytes written (no Django)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout
from storage.zfs.sandbox import SandboxZfsEngine
from storage.zfs.sandbox.dedup import DDT_ENTRY_IN_CORE, DDT_ENTRY_ON_DISK

GIB = 1024**3
MIB = 1024**2
K128 = 128 * 1024
TEXT = b"the quick brown fox jumps over the lazy dog; " * 100


@pytest.fixture
def engine(tmp_path: Path) -> SandboxZfsEngine:
    sandbox = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=4, disk_size=2 * GIB)
    sandbox.create_pool("tank", PoolLayout.single("stripe", ["sda"]))
    return sandbox


def mountpoint(engine: SandboxZfsEngine, name: str) -> Path:
    return Path(engine.get_dataset(name).mountpoint or "")


def write(path: Path, data: bytes) -> None:
    path.write_bytes(data)


def repetitive(size: int) -> bytes:
    return (TEXT * (size // len(TEXT) + 1))[:size]


def test_figures_change_only_after_a_rescan(engine):
    engine.create_dataset("tank/a", properties={"compression": "off"})
    write(mountpoint(engine, "tank/a") / "f", os.urandom(MIB))
    assert engine.get_dataset("tank/a").used == 0  # reads are the last scan's figures
    engine.rescan()
    ds = engine.get_dataset("tank/a")
    assert (ds.used, ds.referenced, ds.logicalused) == (MIB, MIB, MIB)
    assert engine.get_pool("tank").allocated == MIB


def test_random_data_compresses_about_one_to_one_with_lz4(engine):
    engine.create_dataset("tank/rand", properties={"compression": "lz4"})
    write(mountpoint(engine, "tank/rand") / "r", os.urandom(4 * MIB))
    engine.rescan()
    ds = engine.get_dataset("tank/rand")
    assert ds.compressratio == 1.0
    assert ds.used == 4 * MIB  # incompressible blocks are stored as they are


def test_repetitive_text_caps_at_recordsize_over_4k(engine):
    engine.create_dataset("tank/text", properties={"compression": "gzip-6"})
    engine.create_dataset("tank/small", properties={"compression": "gzip", "recordsize": "16K"})
    write(mountpoint(engine, "tank/text") / "t", repetitive(4 * MIB))
    write(mountpoint(engine, "tank/small") / "t", repetitive(4 * MIB))
    engine.rescan()
    text = engine.get_dataset("tank/text")
    # Each 128K record shrinks to a few hundred bytes, but one 4 KiB sector is the minimum.
    assert text.compressratio == 32.0
    assert text.used == 32 * 4096
    assert text.logicalused == 4 * MIB
    assert engine.get_dataset("tank/small").compressratio == 4.0
    # The pool root sums its children: 8 MiB logical in 32 + 256 sectors.
    assert engine.get_dataset("tank").compressratio == round(8 * MIB / (288 * 4096), 2)


@pytest.mark.parametrize("algo", ["lz4", "gzip-1", "gzip-9", "zstd", "zstd-19", "zle", "lzjb"])
def test_every_algorithm_saves_space_on_text(engine, algo):
    engine.create_dataset("tank/t", properties={"compression": algo})
    data = repetitive(MIB) if algo != "zle" else bytes(K128 - 10) + b"x" * 10
    write(mountpoint(engine, "tank/t") / "t", data)
    engine.rescan()
    ds = engine.get_dataset("tank/t")
    assert ds.compressratio > 2.0
    assert ds.used < ds.logicalused


def test_a_block_must_save_an_eighth_to_be_stored_compressed(engine):
    engine.create_dataset("tank/a", properties={"compression": "lz4"})
    # Half random, half zeros compresses to ~50%: kept. 7/8 random saves less than 1/8: raw.
    half = os.urandom(K128 // 2) + bytes(K128 // 2)
    mostly = os.urandom(K128 * 15 // 16) + bytes(K128 // 16)
    write(mountpoint(engine, "tank/a") / "half", half)
    write(mountpoint(engine, "tank/a") / "mostly", mostly)
    engine.rescan()
    ds = engine.get_dataset("tank/a")
    assert ds.used == K128 // 2 + 4096 + K128  # one block squeezed (sector-rounded), one raw


def test_zero_blocks_are_holes_with_compression_and_allocated_without(engine):
    engine.create_dataset("tank/on", properties={"compression": "lz4"})
    engine.create_dataset("tank/off", properties={"compression": "off"})
    for name in ("tank/on", "tank/off"):
        write(mountpoint(engine, name) / "zeros", bytes(MIB))
    engine.rescan()
    assert engine.get_dataset("tank/on").used == 0
    assert engine.get_dataset("tank/off").used == MIB


def test_never_written_zvol_regions_take_nothing(engine):
    engine.create_zvol("tank/vol", size=64 * MIB, sparse=True, properties={"compression": "off"})
    with open(engine.zvol_path("tank/vol"), "r+b") as handle:
        handle.seek(10 * MIB)
        handle.write(os.urandom(16384))
    engine.rescan()
    vol = engine.get_dataset("tank/vol")
    assert vol.used == vol.referenced == 16384


def test_small_files_take_whole_sectors(engine):
    engine.create_dataset("tank/small", properties={"compression": "off"})
    write(mountpoint(engine, "tank/small") / "tiny", b"x" * 100)
    engine.rescan()
    ds = engine.get_dataset("tank/small")
    assert (ds.used, ds.logicalused) == (4096, 512)


def test_a_file_past_one_record_is_whole_records(engine):
    # Like ZFS: 129K at recordsize 128K is two 128K blocks; without compression both are stored.
    engine.create_dataset("tank/off", properties={"compression": "off"})
    engine.create_dataset("tank/on", properties={"compression": "lz4"})
    data = os.urandom(K128 + 1024)
    write(mountpoint(engine, "tank/off") / "f", data)
    write(mountpoint(engine, "tank/on") / "f", data)
    engine.rescan()
    assert engine.get_dataset("tank/off").used == 2 * K128
    assert engine.get_dataset("tank/on").used == K128 + 4096


def test_a_file_copied_twice_into_a_dedup_dataset_gives_2x(engine):
    engine.create_dataset("tank/dd", properties={"dedup": "on"})
    folder = mountpoint(engine, "tank/dd")
    write(folder / "one", os.urandom(2 * MIB))
    shutil.copyfile(folder / "one", folder / "two")
    engine.rescan()
    pool = engine.get_pool("tank")
    assert pool.dedupratio == 2.0
    assert pool.allocated == 2 * MIB
    assert engine.get_dataset("tank/dd").used == 4 * MIB  # datasets still count every copy
    table = engine.dedup_table("tank")
    assert table.entries == 16
    assert table.size_in_core == 16 * DDT_ENTRY_IN_CORE
    assert table.size_on_disk == 16 * DDT_ENTRY_ON_DISK
    assert [(r.refcnt, r.blocks, r.ref_blocks) for r in table.histogram] == [
        ("2", 16, 32),
        ("Total", 16, 32),
    ]
    zdb = engine.dedup_table_zdb("tank")
    assert [(c.name, c.entries) for c in zdb.classes] == [("DDT-sha256-zap-duplicate", 16)]
    assert zdb.dedupratio == 2.0


def test_duplicates_outside_dedup_datasets_are_not_deduplicated(engine):
    engine.create_dataset("tank/plain")
    folder = mountpoint(engine, "tank/plain")
    write(folder / "one", os.urandom(MIB))
    shutil.copyfile(folder / "one", folder / "two")
    engine.rescan()
    assert engine.get_pool("tank").dedupratio == 1.0
    assert engine.dedup_table("tank").entries == 0
    simulated = engine.simulate_dedup("tank")  # zdb -S sees what dedup would do
    assert simulated.dedup == 2.0
    assert simulated.entries == 8


def _write_one_block_twice(engine, volblocksize: int, offsets: tuple[int, int]) -> None:
    """A dedup zvol holding the same random 4 KiB block at two offsets, then rescanned."""
    engine.create_zvol(
        "tank/vol", size=16 * MIB, volblocksize=volblocksize, properties={"dedup": "on"}
    )
    block = os.urandom(4096)
    with open(engine.zvol_path("tank/vol"), "r+b") as handle:
        for offset in offsets:
            handle.seek(offset)
            handle.write(block)
    engine.rescan()


def test_a_4k_zvol_dedups_at_any_4k_aligned_offset(engine):
    _write_one_block_twice(engine, 4096, (4096 * 3, 4096 * 1001))
    assert engine.get_pool("tank").dedupratio == 2.0
    assert engine.dedup_table("tank").entries == 1


def test_a_16k_zvol_does_not_see_4k_duplicates(engine):
    _write_one_block_twice(engine, 16384, (4096 * 1, 4096 * 6))
    assert engine.get_pool("tank").dedupratio == 1.0


def test_parents_include_their_children(engine):
    engine.create_dataset("tank/a", properties={"compression": "off"})
    engine.create_dataset("tank/a/b", properties={"compression": "off"})
    write(mountpoint(engine, "tank/a") / "f", os.urandom(MIB))
    write(mountpoint(engine, "tank/a/b") / "f", os.urandom(2 * MIB))
    engine.rescan()
    parent = engine.get_dataset("tank/a")
    assert (parent.used, parent.referenced, parent.logicalused) == (3 * MIB, MIB, 3 * MIB)
    assert engine.get_dataset("tank").used == 3 * MIB


def test_mirror_and_raidz_allocation(tmp_path):
    sandbox = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=5)
    sandbox.create_pool("m", PoolLayout.single("mirror", ["sda", "sdb"]))
    sandbox.create_pool("r", PoolLayout.single("raidz1", ["sdc", "sdd", "sde"]))
    for pool in ("m", "r"):
        sandbox.set_properties(pool, {"compression": "off"})
        write(mountpoint(sandbox, pool) / "f", os.urandom(3 * MIB))
    sandbox.rescan()
    # zpool list counts one side of a mirror; a raidz1 of 3 adds one parity sector per two.
    assert sandbox.get_pool("m").allocated == 3 * MIB
    assert sandbox.get_pool("r").allocated == 3 * MIB * 3 // 2
    # zfs list hides the parity of full records (OpenZFS's integer deflate ratio: 341/512).
    assert sandbox.get_dataset("r").used == 3 * MIB * 3 // 2 // 512 * 341


def test_rescan_reads_only_changed_files(engine):
    engine.create_dataset("tank/a")
    folder = mountpoint(engine, "tank/a")
    for i in range(5):
        write(folder / f"f{i}", os.urandom(64 * 1024))
    first = engine.rescan()
    assert (first.files_seen, first.files_read) == (5, 5)
    second = engine.rescan()
    assert (second.files_seen, second.files_read) == (5, 0)
    write(folder / "f2", os.urandom(1000))
    (folder / "f4").unlink()
    third = engine.rescan()
    assert (third.files_seen, third.files_read) == (4, 1)
    assert third.read_paths == [str(folder / "f2")]
    assert engine.get_dataset("tank/a").used == 4096 + 3 * 64 * 1024


def test_rescan_reports_progress(engine):
    folder = mountpoint(engine, "tank")
    for i in range(3):
        write(folder / f"f{i}", b"x")
    seen = []
    engine.rescan(progress=lambda done, total, path: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_destroyed_dataset_leaves_the_figures_at_the_next_scan(engine):
    engine.create_dataset("tank/a", properties={"compression": "off"})
    write(mountpoint(engine, "tank/a") / "f", os.urandom(MIB))
    engine.rescan()
    engine.destroy_dataset("tank/a")
    engine.rescan()
    assert engine.get_pool("tank").allocated == 0


def test_hard_links_are_counted_once(engine):
    engine.set_properties("tank", {"compression": "off"})
    folder = mountpoint(engine, "tank")
    write(folder / "f", os.urandom(MIB))
    os.link(folder / "f", folder / "g")
    engine.rescan()
    assert engine.get_dataset("tank").used == MIB

"""Space figures after writing real data; dedup table, zdb -S, ARC, scrub, versions, disks."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from vmhelpers import SERIAL_PREFIX, sync_pool, wait_for

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.disks import list_disks
from storage.zfs.space import PoolSpace

POOL = "spool"
MIB = 1 << 20
BREAKDOWN = ("usedbydataset", "usedbychildren", "usedbysnapshots", "usedbyrefreservation")
FIGURES = ("used", "referenced", "logicalreferenced", "refreservation", *BREAKDOWN)
TXG_TIMEOUT = Path("/sys/module/zfs/parameters/zfs_txg_timeout")


def text_data(size: int) -> bytes:
    """Real, compressible text: the guest's Python standard library sources."""
    chunks, total = [], 0
    for path in sorted(Path("/usr/lib/python3.11").glob("*.py")):
        data = path.read_bytes()
        chunks.append(data)
        total += len(data)
        if total >= size:
            break
    return b"".join(chunks)[:size]


@pytest.fixture(scope="module")
def pool(module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine) -> str:
    """A stripe of two disks with data written in four ways, synced."""
    name = module_pool(POOL, PoolLayout.single("stripe", all_disks[2:4]))
    for fs, props in {
        "random": {"compression": "lz4", "recordsize": "131072"},
        "text": {"compression": "gzip"},
        "plain": {"compression": "off"},
        "dedup": {"compression": "off", "dedup": "on", "recordsize": "16384"},
    }.items():
        engine.create_dataset(f"{name}/{fs}", properties=props)
    random_block = os.urandom(4 * MIB)
    Path(f"/{name}/random/data").write_bytes(os.urandom(16 * MIB))
    text = text_data(8 * MIB)
    Path(f"/{name}/text/data").write_bytes(text)
    Path(f"/{name}/plain/data").write_bytes(text)
    # the same 4 MiB four times: 16 MiB referenced, about 4 MiB allocated
    Path(f"/{name}/dedup/data").write_bytes(random_block * 4)
    engine.create_zvol(f"{name}/dvol", size=32 * MIB, volblocksize=4096, sparse=True,
                       properties={"dedup": "on", "compression": "off"})  # fmt: skip
    assert wait_for(lambda: Path(f"/dev/zvol/{name}/dvol").exists(), timeout=30)
    with open(f"/dev/zvol/{name}/dvol", "r+b") as vol:
        for offset in (0, 8 * MIB):
            vol.seek(offset)
            vol.write(random_block)
    sync_pool(engine, name)
    return name


def test_random_data_does_not_compress(engine: CliZfsEngine, pool: str) -> None:
    dataset = engine.get_dataset(f"{pool}/random")
    assert 0.99 <= dataset.compressratio <= 1.02
    assert dataset.logicalused >= 16 * MIB


def test_text_compresses_and_plain_does_not(engine: CliZfsEngine, pool: str) -> None:
    text, plain = engine.get_dataset(f"{pool}/text"), engine.get_dataset(f"{pool}/plain")
    assert text.compressratio > 2.0
    assert plain.compressratio == 1.0
    assert text.used < plain.used / 2
    assert text.logicalused == pytest.approx(plain.logicalused, rel=0.05)


def test_duplicate_blocks_raise_the_pool_dedup_ratio(engine: CliZfsEngine, pool: str) -> None:
    assert engine.get_pool(pool).dedupratio > 1.5


def test_the_dedup_table_reads_the_same_from_status_and_zdb(
    engine: CliZfsEngine, pool: str
) -> None:
    status, zdb = engine.dedup_table(pool), engine.dedup_table_zdb(pool)

    # 4 MiB at 16K records + 4 MiB at 4K volblocks, each unique block once
    assert 1000 <= status.entries <= 2000
    assert zdb.entries == status.entries
    assert {c.name.split("-")[-1] for c in zdb.classes} <= {"unique", "duplicate"}
    # totals, not per-entry averages: tens to hundreds of bytes per entry (zpool status -D
    # lags zdb by a transaction group, so only zdb's figures are bounded tightly)
    assert 0 <= status.size_in_core < 2000 * status.entries
    assert 10 * zdb.entries < zdb.size_in_core < 2000 * zdb.entries
    assert 50 * zdb.entries < zdb.size_on_disk < 4000 * zdb.entries
    total = next(row for row in zdb.histogram if row.refcnt == "Total")
    assert total.ref_blocks > total.blocks
    assert zdb.dedupratio is not None
    assert zdb.dedupratio > 1.5


def test_zdb_simulation_finds_the_duplicates(engine: CliZfsEngine, pool: str) -> None:
    sim = engine.simulate_dedup(pool)

    # random(16M) + text(8M) + plain(8M) + dedup data and zvol: the text copies and
    # the repeated blocks are duplicates
    assert sim.dedup > 1.1
    assert sim.ratio == pytest.approx(sim.dedup * sim.compress / sim.copies, rel=0.02)
    assert sim.entries > 1000


def test_arcstats_are_read(engine: CliZfsEngine, pool: str) -> None:
    arc = engine.arcstats()
    assert arc.size > 0
    assert arc.c_max >= arc.c_min > 0
    assert arc.hits + arc.misses > 0
    assert arc.hit_ratio is not None
    assert arc["c"] == arc.c


def test_a_scrub_runs_to_completion_without_errors(engine: CliZfsEngine, pool: str) -> None:
    engine.scrub_start(pool)
    assert wait_for(lambda: engine.scrub_status(pool).state == "finished", timeout=240)

    scan = engine.scrub_status(pool)
    assert (scan.function, scan.errors, scan.percent_done) == ("scrub", 0, 100.0)
    assert engine.pool_status(pool).errors == "No known data errors"


def test_a_scrub_can_be_stopped(engine: CliZfsEngine, pool: str) -> None:
    engine.scrub_start(pool)
    stopped = engine.scrub_stop(pool)  # False: the scrub of a small pool was already over

    assert engine.scrub_status(pool).state == ("canceled" if stopped else "finished")
    assert engine.scrub_stop(pool) is False


def test_versions_are_openzfs_2(engine: CliZfsEngine) -> None:
    version = engine.version()
    assert version.userland.startswith("2.")
    assert version.kernel.startswith("2.")


def test_disks_are_listed_with_serials_and_sizes() -> None:
    disks = [d for d in list_disks() if d.serial.startswith(SERIAL_PREFIX)]
    assert len(disks) >= 6
    assert all(d.size >= 256 * MIB and d.path.startswith("/dev/vd") for d in disks)


@pytest.fixture(scope="module")
def figures_pool(
    module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine
) -> str:
    """One disk holding every part of used: a thick zvol, a snapshot, a reservation."""
    name = module_pool("fpool", PoolLayout.single("stripe", all_disks[4:5]))
    engine.create_zvol(f"{name}/thick", size=64 * MIB, volblocksize=16384)
    engine.create_dataset(f"{name}/snap", properties={"compression": "off"})
    engine.create_dataset(f"{name}/held", properties={"reservation": str(32 * MIB)})
    Path(f"/{name}/snap/data").write_bytes(os.urandom(4 * MIB))
    engine.run(["zfs", "snapshot", f"{name}/snap@before"])
    with open(f"/{name}/snap/data", "r+b") as rewrite:
        rewrite.write(os.urandom(MIB))  # the old 1 MiB stays in the snapshot
    assert wait_for(lambda: Path(f"/dev/zvol/{name}/thick").exists(), timeout=30)
    with open(f"/dev/zvol/{name}/thick", "r+b") as vol:
        vol.write(os.urandom(4 * MIB))
    sync_pool(engine, name)
    return name


def test_the_used_breakdown_adds_up_and_matches_zfs_get(
    engine: CliZfsEngine, figures_pool: str
) -> None:
    datasets = {d.name: d for d in engine.list_datasets(figures_pool)}
    shown = {}
    for name, dataset in datasets.items():
        got = engine.get_properties(name, FIGURES)
        shown[name] = {prop: int(got[prop].value) for prop in FIGURES}
        assert dataset.used == sum(getattr(dataset, part) for part in BREAKDOWN), name
        for prop in FIGURES:
            assert (getattr(dataset, prop) or 0) == shown[name][prop], (name, prop)
    _save("breakdown.json", shown)

    thick, snap = datasets[f"{figures_pool}/thick"], datasets[f"{figures_pool}/snap"]
    assert thick.refreservation is not None
    assert thick.refreservation >= 64 * MIB
    assert thick.usedbyrefreservation == thick.refreservation - thick.referenced
    assert thick.logicalreferenced >= 4 * MIB
    assert snap.usedbysnapshots >= MIB
    held = datasets[f"{figures_pool}/held"]
    assert held.used < MIB  # its unused reservation is charged to the parent
    assert datasets[figures_pool].usedbychildren >= 32 * MIB + thick.used + snap.used


@pytest.fixture
def pending_writes() -> Iterator[None]:
    """Transaction groups that sync only when asked, so a write stays pending meanwhile."""
    before = TXG_TIMEOUT.read_text()
    TXG_TIMEOUT.write_text("600")
    yield
    TXG_TIMEOUT.write_text(before)


def test_settle_makes_a_just_written_zvol_show_its_data(
    engine: CliZfsEngine, figures_pool: str, pending_writes: None
) -> None:
    name = f"{figures_pool}/fresh"
    engine.create_zvol(name, size=32 * MIB, sparse=True, properties={"compression": "off"})
    assert wait_for(lambda: Path(f"/dev/zvol/{name}").exists(), timeout=30)
    engine.settle(figures_pool)
    with open(f"/dev/zvol/{name}", "r+b") as vol:
        vol.write(os.urandom(8 * MIB))
        vol.flush()  # into the page cache: neither in ZFS yet nor synced
        pending = engine.get_dataset(name)
        engine.settle(figures_pool)
        settled = engine.get_dataset(name)
    _save("settle.json", {"pending": pending.referenced, "settled": settled.referenced})

    assert pending.referenced < MIB
    assert settled.referenced >= 8 * MIB
    assert settled.logicalreferenced >= 8 * MIB
    assert settled.figures_read_at > pending.figures_read_at


def _save(name: str, figures: object) -> None:
    """Print figures and keep them in $NASUI_VM_OUT for the notes."""
    print(json.dumps(figures, indent=1))
    out = os.environ.get("NASUI_VM_OUT")
    if out:
        Path(out, name).write_text(json.dumps(figures, indent=2))


def test_a_thick_zvol_is_reserved_space_not_data(engine: CliZfsEngine, pool: str) -> None:
    before = PoolSpace.of(engine.list_datasets(pool))
    assert before is not None
    engine.create_zvol(f"{pool}/thick", size=48 * MIB, volblocksize=16384, sparse=False)
    try:
        sync_pool(engine, pool)
        vol = engine.get_dataset(f"{pool}/thick")
        after = PoolSpace.of(engine.list_datasets(pool))
        assert after is not None
        assert vol.usedbyrefreservation > 40 * MIB  # real OpenZFS reserves volsize + metadata
        assert after.reserved - before.reserved == vol.usedbyrefreservation
        assert abs(after.data - before.data) < 2 * MIB  # nothing written: no data added
        assert after.usable == pytest.approx(before.usable, rel=0.01)  # usable stays the same
    finally:
        engine.destroy_dataset(f"{pool}/thick")

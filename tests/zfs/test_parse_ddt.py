"""Dedup-table parsers: OpenZFS 2.1 per-entry (captured) and 2.3+ totals (hand-written)."""

from __future__ import annotations

import re
from collections.abc import Callable

from storage.zfs import parse

Text = Callable[[str], str]
HANDWRITTEN = "openzfs-2.3-handwritten/"  # not captured: see the README there


def _per_entry(text: str) -> tuple[int, int, int]:
    """(entries, bytes on disk per entry, in core per entry) as zdb 2.1 prints them."""
    match = re.search(r"(\d+) entries, size (\d+) on disk, (\d+) in core", text)
    assert match
    entries, disk, core = (int(g) for g in match.groups())
    return entries, disk, core


def test_zdb_dd_2_1_per_entry_sizes_become_totals(fixture_text: Text) -> None:
    text = fixture_text("zdb_DD_tank.txt")
    entries, disk, core = _per_entry(text)
    table = parse.parse_zdb_ddt(text, per_entry=True)

    # 2 MiB of 16K records + 2 MiB on a 4K zvol, each written three times
    assert table.entries == entries == 640
    assert (table.size_on_disk, table.size_in_core) == (entries * disk, entries * core)
    assert [c.name for c in table.classes] == ["DDT-sha256-zap-duplicate"]
    assert table.dedupratio == 3.0


def test_zdb_dd_infers_per_entry_sizes_without_a_version(fixture_text: Text) -> None:
    text = fixture_text("zdb_DD_tank.txt")
    entries, disk, _ = _per_entry(text)
    assert parse.parse_zdb_ddt(text).size_on_disk == entries * disk


def test_zdb_dd_histogram_rows(fixture_text: Text) -> None:
    rows = parse.parse_zdb_ddt(fixture_text("zdb_DD_tank.txt")).histogram

    assert [r.refcnt for r in rows] == ["2", "Total"]
    total = rows[-1]
    assert (total.blocks, total.lsize, total.psize) == (640, 4 << 20, 4 << 20)
    assert total.ref_lsize == 12 << 20
    assert total.ref_blocks == round(1.88 * 1024)  # "1.88K": zdb prints nice numbers only


def test_zdb_dd_of_a_pool_without_dedup(fixture_text: Text) -> None:
    table = parse.parse_zdb_ddt(fixture_text("zdb_DD_fast.txt"))
    assert (table.entries, table.size_on_disk, table.histogram) == (0, 0, ())


def test_zdb_dd_2_3_totals_are_kept(fixture_text: Text) -> None:
    text = fixture_text(HANDWRITTEN + "zdb_DD.txt")

    for per_entry in (False, None):  # known from the version, or inferred from the sizes
        table = parse.parse_zdb_ddt(text, per_entry=per_entry)
        assert (table.entries, table.size_on_disk, table.size_in_core) == (640, 408960, 97920)


def test_status_dedup_2_1_form(fixture_text: Text) -> None:
    text = fixture_text("zpool_status_D_tank.txt")
    table = parse.parse_status_dedup(text, per_entry=True)
    match = re.search(r"DDT entries (\d+), size (\d+)B on disk, (\d+)B in core", text)
    assert match
    entries, disk, core = (int(g) for g in match.groups())

    assert (table.entries, table.size_on_disk, table.size_in_core) == (
        entries, entries * disk, entries * core,
    )  # fmt: skip
    assert table.histogram[-1].refcnt == "Total"
    assert table.histogram[-1].blocks == 640


def test_status_dedup_2_3_form(fixture_text: Text) -> None:
    table = parse.parse_status_dedup(fixture_text(HANDWRITTEN + "zpool_status_D.txt"))

    assert table.entries == 640
    assert table.size_on_disk == 399 * 1024
    assert table.size_in_core == round(95.6 * 1024)


def test_status_dedup_without_entries(fixture_text: Text) -> None:
    table = parse.parse_status_dedup(fixture_text("zpool_status_D_fast.txt"))
    assert (table.entries, table.size_on_disk, table.size_in_core) == (0, 0, 0)


def test_zdb_simulation_reads_ratios_and_histogram(fixture_text: Text) -> None:
    sim = parse.parse_zdb_simulation(fixture_text("zdb_S_tank.txt"))

    assert sim.dedup > 1.0
    assert abs(sim.ratio - sim.dedup * sim.compress / sim.copies) < 0.02
    assert [r.refcnt for r in sim.histogram] == ["1", "2", "Total"]
    assert sim.entries == sim.histogram[-1].blocks

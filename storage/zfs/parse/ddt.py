"""Parsers for dedup-table reports: `zpool status -D`, `zdb -DD` and `zdb -S`.

OpenZFS up to 2.2 prints DDT sizes as per-entry averages ("3486 entries, size 648 on disk,
155 in core"); 2.3 and later print totals. Every parser here returns totals: pass
`per_entry=True/False` when the version is known, or leave it None to infer it from the numbers.
"""

from __future__ import annotations

import re

from storage.zfs.base import DdtClass, DdtHistogramRow, DedupSimulation, DedupTable
from storage.zfs.parse.units import parse_count, parse_size

_SIZE = r"([\d.]+[KMGTPEZ]?B?)"
_STATUS_SUMMARY = re.compile(rf"DDT entries (\d+), size {_SIZE} on disk, {_SIZE} in core")
_ZDB_CLASS = re.compile(rf"^(DDT-\S+): (\d+) entries, size {_SIZE} on disk, {_SIZE} in core", re.M)
_RATIOS = re.compile(
    r"dedup = ([\d.]+), compress = ([\d.]+), copies = ([\d.]+), "
    r"dedup \* compress / copies = ([\d.]+)"
)
# A DDT entry is a few hundred bytes; the whole table object is at least one 4 KiB block. So a
# "size" no larger than this, for more than one entry, can only be a per-entry average.
_PER_ENTRY_MAX = 4096


def _is_per_entry(entries: int, on_disk: int, per_entry: bool | None) -> bool:
    """Decide whether sizes are averages; an explicit answer (from the version) wins."""
    if per_entry is not None:
        return per_entry
    return entries > 1 and on_disk <= _PER_ENTRY_MAX


def _totals(entries: int, disk: str, core: str, per_entry: bool | None) -> tuple[int, int]:
    """Sizes as printed -> (total on disk, total in core) in bytes."""
    on_disk, in_core = parse_size(disk), parse_size(core)
    if _is_per_entry(entries, on_disk, per_entry):
        return on_disk * entries, in_core * entries
    return on_disk, in_core


def parse_ddt_histogram(text: str) -> tuple[DdtHistogramRow, ...]:
    """The first "bucket / refcnt / ------" table in the text -> rows (including Total)."""
    rows: list[DdtHistogramRow] = []
    in_table = False
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "------":
            in_table = True
            continue
        if not in_table:
            continue
        if len(words) != 9:
            if rows:
                break  # the table ends at the first line that is not a row
            continue
        rows.append(_histogram_row(words))
    return tuple(rows)


def _histogram_row(words: list[str]) -> DdtHistogramRow:
    counts = [parse_count(words[1]), parse_count(words[5])]
    sizes = [parse_size(w) for w in words[2:5] + words[6:9]]
    return DdtHistogramRow(
        refcnt=words[0],
        blocks=counts[0],
        lsize=sizes[0],
        psize=sizes[1],
        dsize=sizes[2],
        ref_blocks=counts[1],
        ref_lsize=sizes[3],
        ref_psize=sizes[4],
        ref_dsize=sizes[5],
    )


def parse_status_dedup(text: str, *, per_entry: bool | None = None) -> DedupTable:
    """`zpool status -D POOL` -> DedupTable (zeros when the pool has no DDT entries)."""
    match = _STATUS_SUMMARY.search(text)
    if not match:
        return DedupTable(entries=0, size_on_disk=0, size_in_core=0)
    entries = int(match.group(1))
    on_disk, in_core = _totals(entries, match.group(2), match.group(3), per_entry)
    return DedupTable(
        entries=entries,
        size_on_disk=on_disk,
        size_in_core=in_core,
        histogram=parse_ddt_histogram(text[match.end() :]),
    )


def parse_zdb_ddt(text: str, *, per_entry: bool | None = None) -> DedupTable:
    """`zdb -DD POOL` -> DedupTable with one DdtClass per DDT object, summed."""
    classes = []
    for name, count, disk, core in _ZDB_CLASS.findall(text):
        entries = int(count)
        on_disk, in_core = _totals(entries, disk, core, per_entry)
        classes.append(DdtClass(name, entries, on_disk, in_core))
    ratios = _RATIOS.search(text)
    return DedupTable(
        entries=sum(c.entries for c in classes),
        size_on_disk=sum(c.size_on_disk for c in classes),
        size_in_core=sum(c.size_in_core for c in classes),
        classes=tuple(classes),
        histogram=parse_ddt_histogram(text),
        dedupratio=float(ratios.group(1)) if ratios else None,
    )


def parse_zdb_simulation(text: str) -> DedupSimulation:
    """`zdb -S POOL` -> simulated histogram and ratios."""
    ratios = _RATIOS.search(text)
    if not ratios:
        raise ValueError("no 'dedup = ...' line in zdb -S output")
    dedup, compress, copies, ratio = (float(g) for g in ratios.groups())
    return DedupSimulation(
        dedup=dedup,
        compress=compress,
        copies=copies,
        ratio=ratio,
        histogram=parse_ddt_histogram(text),
    )

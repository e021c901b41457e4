"""Dedup tables from block checksums: DDT entries, histogram by reference count, ratios."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from storage.zfs.base import DdtClass, DdtHistogramRow, DedupSimulation, DedupTable

# Per-entry DDT sizes (facts.md, "Dedup table sizes" and "Space accounting on real OpenZFS").
# In core: the 320-byte rule of thumb used to plan RAM for dedup (a classic entry is a 40-byte
# key and a 256-byte value, plus bookkeeping). `zpool status -D` on 2.1 shows ~140-220 B, but that
# is the DDT object's size per entry, not RAM per entry, so the panel plans with 320 B.
DDT_ENTRY_IN_CORE = 320
# On disk: ~580-650 B per entry measured with a 4K zvol on OpenZFS 2.1.11 (`zdb -DD`).
DDT_ENTRY_ON_DISK = 600
# One entry's figures: [reference count, lsize, psize, dsize], sizes of one copy.
Entry = list[int]
# A histogram row as stored in the state file: bucket label then the 8 numbers of a row.
StoredRow = list[Any]


def add_block(table: dict[str, Entry], key: str, lsize: int, psize: int, dsize: int) -> None:
    """Count one more reference to a block (the first one allocates it)."""
    entry = table.get(key)
    if entry is None:
        table[key] = [1, lsize, psize, dsize]
    else:
        entry[0] += 1


def _label(bucket: int) -> str:
    """zdb's refcnt column: 1, 2, 4 ... 512, 1K, 2K ... 1M."""
    for suffix, shift in (("M", 20), ("K", 10)):
        if bucket >= 1 << shift:
            return f"{bucket >> shift}{suffix}"
    return str(bucket)


def histogram(table: Mapping[str, Entry]) -> list[StoredRow]:
    """Rows by power-of-two reference count, then the Total row, as zdb prints them."""
    buckets: dict[int, list[int]] = {}
    for refcnt, lsize, psize, dsize in table.values():
        row = buckets.setdefault(1 << (refcnt.bit_length() - 1), [0] * 8)
        for i, value in enumerate((1, lsize, psize, dsize)):
            row[i] += value
            row[i + 4] += value * refcnt
    rows: list[StoredRow] = [[_label(b), *buckets[b]] for b in sorted(buckets)]
    if rows:
        rows.append(["Total", *(sum(r[i] for r in rows) for i in range(1, 9))])
    return rows


def to_rows(stored: Iterable[StoredRow]) -> tuple[DdtHistogramRow, ...]:
    """Stored rows -> the engine's dataclasses."""
    return tuple(DdtHistogramRow(str(r[0]), *(int(v) for v in r[1:9])) for r in stored)


def _total(rows: Sequence[StoredRow]) -> list[int]:
    return [int(v) for v in rows[-1][1:9]] if rows else [0] * 8


def dedup_ratio(rows: Sequence[StoredRow]) -> float:
    """The pool's DEDUP column: referenced allocated bytes / allocated bytes of the DDT."""
    total = _total(rows)
    return round(total[7] / total[3], 2) if total[3] else 1.0


def table(rows: Sequence[StoredRow], *, with_classes: bool) -> DedupTable:
    """A DedupTable with totals (unique + duplicate objects) and the histogram."""
    entries = _total(rows)[0]
    unique = next((int(r[1]) for r in rows if r[0] == "1"), 0)
    classes = tuple(
        DdtClass(f"DDT-sha256-zap-{kind}", n, n * DDT_ENTRY_ON_DISK, n * DDT_ENTRY_IN_CORE)
        for kind, n in (("duplicate", entries - unique), ("unique", unique))
        if n
    )
    return DedupTable(
        entries=entries,
        size_on_disk=entries * DDT_ENTRY_ON_DISK,
        size_in_core=entries * DDT_ENTRY_IN_CORE,
        classes=classes if with_classes else (),
        histogram=to_rows(rows),
        dedupratio=dedup_ratio(rows) if with_classes else None,
    )


def simulation(rows: Sequence[StoredRow]) -> DedupSimulation:
    """zdb -S's ratios from a histogram of every block of the pool."""
    _, _, _, _, _, ref_lsize, ref_psize, ref_dsize = _total(rows)
    dedup = dedup_ratio(rows)
    compress = round(ref_lsize / ref_psize, 2) if ref_psize else 1.0
    copies = round(ref_dsize / ref_psize, 2) if ref_psize else 1.0
    return DedupSimulation(
        dedup=dedup,
        compress=compress,
        copies=copies,
        ratio=round(dedup * compress / copies, 2) if copies else 1.0,
        histogram=to_rows(rows),
    )

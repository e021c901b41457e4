"""What dedup would cost in RAM: DDT entries and bytes against this machine's RAM and ARC.

Plain arithmetic, no Django: the selectors feed it the pool's own DDT figures when it has them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Rule of thumb for the in-core size of one DDT entry when the pool has no DDT of its own yet:
# a classic entry is a 40-byte key and a 256-byte value, widely quoted as "320 B per entry"
# (OpenZFS sources; the "5 GB of RAM per TB at 64K blocks" advice is the same figure).
RULE_CORE_BYTES_PER_ENTRY = 320
# OpenZFS 2.1 on Linux caps the ARC at half of RAM unless zfs_arc_max says otherwise.
DEFAULT_ARC_SHARE_OF_RAM = 0.5
# OpenZFS 2.1 keeps metadata (the DDT is metadata) to 75% of the ARC (zfs_arc_meta_limit_percent).
ARC_META_SHARE = 0.75
COMFORTABLE_SHARE_OF_ARC = 0.25


@dataclass(frozen=True)
class DedupEstimate:
    """Expected DDT size for an amount of data, and how it fits in memory."""

    data_bytes: int
    block_size: int
    entries: int
    core_bytes_per_entry: int
    per_entry_source: str  # "pool" when measured on this pool's DDT, else "rule"
    ram_bytes: int
    ram_total: int
    arc_max: int
    arc_max_source: str  # "arcstats" or "default"
    verdict: str  # ok, tight, trap

    @property
    def share_of_arc(self) -> float:
        """DDT bytes as a share of the ARC maximum."""
        return self.ram_bytes / self.arc_max if self.arc_max else math.inf

    @property
    def share_of_ram(self) -> float:
        """DDT bytes as a share of physical RAM."""
        return self.ram_bytes / self.ram_total if self.ram_total else math.inf

    @property
    def explanation(self) -> str:
        """A plain sentence for the verdict."""
        if self.verdict == "ok":
            return (
                "The dedup table should fit in the ARC with room to spare. Dedup only pays off "
                "when the data really repeats."
            )
        if self.verdict == "tight":
            return (
                "The dedup table would take a large part of the ARC, pushing out cached data; "
                "writes and deletes slow down as the table grows."
            )
        return (
            "The dedup table would not fit in the ARC's share for metadata. It would spill to "
            "disk and every write and delete would wait on disk seeks (an rm that took seconds "
            "can take over an hour). Add RAM, or leave dedup off."
        )


def arc_maximum(ram_total: int, arc_max: int | None) -> int:
    """The ARC's size limit: arcstats' c_max, else OpenZFS's default share of the RAM."""
    return arc_max or int(ram_total * DEFAULT_ARC_SHARE_OF_RAM)


def ddt_ram_bytes(entries: int, core_bytes_per_entry: int | None = None) -> int:
    """RAM the dedup table needs: its entries (one per unique block) at the pool's own in-core
    bytes per entry, else the rule of thumb. Every RAM figure for a DDT comes from here."""
    return entries * (core_bytes_per_entry or RULE_CORE_BYTES_PER_ENTRY)


def estimate_dedup(
    *,
    data_bytes: int,
    block_size: int,
    ram_total: int,
    arc_max: int | None,
    core_bytes_per_entry: int | None = None,
    entries: int | None = None,
) -> DedupEstimate:
    """Worst case (no block repeats): one DDT entry per block of data; `entries` when the
    unique blocks were measured."""
    if entries is None:
        entries = math.ceil(data_bytes / block_size) if block_size > 0 else 0
    per_entry = core_bytes_per_entry or RULE_CORE_BYTES_PER_ENTRY
    arc = arc_maximum(ram_total, arc_max)
    ram_bytes = ddt_ram_bytes(entries, per_entry)
    if ram_bytes <= arc * COMFORTABLE_SHARE_OF_ARC:
        verdict = "ok"
    elif ram_bytes <= arc * ARC_META_SHARE:
        verdict = "tight"
    else:
        verdict = "trap"
    return DedupEstimate(
        data_bytes=data_bytes,
        block_size=block_size,
        entries=entries,
        core_bytes_per_entry=per_entry,
        per_entry_source="pool" if core_bytes_per_entry else "rule",
        ram_bytes=ram_bytes,
        ram_total=ram_total,
        arc_max=arc,
        arc_max_source="arcstats" if arc_max else "default",
        verdict=verdict,
    )

"""Dedup from a fixed share of the hash space: bounded memory, scaled up; and its verdict."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from nasui.lib.units import format_bytes
from storage.zfs.dedup import ARC_META_SHARE, COMFORTABLE_SHARE_OF_ARC

DEFAULT_CAP = 1 << 16  # kept hashes: ~7 MB of Python dict, ~0.4% error on the unique count
REF = 1 << 32  # a kept value packs refcount * REF + allocated bytes of the block
# Below this ratio dedup saves too little to pay for the table and the slower writes: the
# usual advice is to expect nothing from dedup unless the data repeats several times over.
WORTH_RATIO = 1.5
TRAP_RATIO = 1.1  # a table paid for on (nearly) unique data


class HashSample:
    """Block hashes whose low bits are zero: a 1/2^level share of the hash space."""

    def __init__(self, cap: int = DEFAULT_CAP) -> None:
        """An empty sample keeping the whole hash space until `cap` hashes are kept."""
        self.cap = cap
        self.level = 0
        self.mask = 0
        self.kept: dict[int, int] = {}
        self.blocks = 0  # every block offered, kept or not

    @property
    def fraction(self) -> float:
        """Share of the hash space kept."""
        return 1.0 / (1 << self.level)

    def add(self, key: int, asize: Callable[[], int]) -> None:
        """Count a block by its 64-bit hash; `asize` is called only for a newly kept hash."""
        self.blocks += 1
        if key & self.mask:
            return
        value = self.kept.get(key)
        if value is not None:
            self.kept[key] = value + REF
            return
        self.kept[key] = REF + asize()
        while len(self.kept) > self.cap:
            self._halve()

    def _halve(self) -> None:
        """Keep half as much of the hash space: drop the hashes the narrower mask excludes."""
        self.level += 1
        self.mask = (1 << self.level) - 1
        self.kept = {key: value for key, value in self.kept.items() if not key & self.mask}

    def ratio(self) -> float:
        """Referenced over allocated bytes of the kept blocks: zdb -S's ref dsize / dsize."""
        allocated = sum(value % REF for value in self.kept.values())
        referenced = sum((value // REF) * (value % REF) for value in self.kept.values())
        return referenced / allocated if allocated else 1.0

    def unique_blocks(self) -> int:
        """Distinct blocks in all, scaled up from the kept share."""
        return round(len(self.kept) / self.fraction)

    def allocated_bytes(self) -> int:
        """Bytes the blocks would allocate with dedup off, scaled up from the kept share."""
        referenced = sum((value // REF) * (value % REF) for value in self.kept.values())
        return round(referenced / self.fraction)


@dataclass(frozen=True)
class Verdict:
    """worth / costly / trap, and the plain sentence with the numbers that decide it."""

    verdict: str
    reason: str


def verdict(*, ratio: float, ddt_bytes: int, arc_max: int, saved_bytes: int) -> Verdict:
    """Judge dedup by its saving and by how much of the ARC its table would take."""
    share = ddt_bytes / arc_max if arc_max else float("inf")
    figures = (
        f"dedup ratio {ratio:.2f}x saves {format_bytes(saved_bytes)}; its table needs "
        f"{format_bytes(ddt_bytes)} of RAM, {share:.0%} of the ARC maximum "
        f"({format_bytes(arc_max)})"
    )
    if share > ARC_META_SHARE:
        spill = f"more than the {ARC_META_SHARE:.0%} the ARC keeps for metadata"
        return Verdict(
            "trap", f"A trap: {figures}, {spill}: writes and deletes would wait on disk."
        )
    if ratio < TRAP_RATIO:
        why = f"the data barely repeats (under {TRAP_RATIO}x): RAM and write speed for nothing"
        return Verdict("trap", f"A trap: {figures}; {why}.")
    if ratio >= WORTH_RATIO and share <= COMFORTABLE_SHARE_OF_ARC:
        room = f"within the {COMFORTABLE_SHARE_OF_ARC:.0%} of the ARC it can take comfortably"
        return Verdict("worth", f"Worth it: {figures}, {room}.")
    if ratio < WORTH_RATIO:
        why = f"the saving is small (under {WORTH_RATIO}x) for the RAM and slower writes"
    else:
        why = (
            f"the table would take over {COMFORTABLE_SHARE_OF_ARC:.0%} of the ARC from cached data"
        )
    return Verdict("costly", f"Costly: {figures}; {why}.")

"""A pool's space as its datasets see it, from the datasets' own figures."""

from __future__ import annotations

from dataclasses import dataclass

from storage.zfs.records import Dataset


@dataclass(frozen=True)
class PoolSpace:
    """A pool's space as its datasets see it: after parity, with reservations apart from data.

    Usable is what the root file system holds plus what it can still take (zpool's SIZE counts
    parity). Reserved is what zvols and reservations hold back but have not written: the root's
    used counts it, so data (what is written, snapshots included) is used less reserved.
    """

    usable: int
    used: int
    reserved: int
    available: int

    @property
    def data(self) -> int:
        """Bytes written on disk (after compression), without unused reservations."""
        return max(0, self.used - self.reserved)

    @property
    def percent_used(self) -> int:
        """How full the pool is for its datasets, reservations included (0-100)."""
        return round(100 * self.used / self.usable) if self.usable else 0

    @classmethod
    def of(cls, datasets: list[Dataset]) -> PoolSpace | None:
        """The space of a pool from its datasets, root first (None without a root)."""
        if not datasets:
            return None
        root, children = datasets[0], datasets[1:]
        return cls(
            usable=root.used + root.available,
            used=root.used,
            reserved=sum(_unused_reservation(d) for d in children) + root.usedbyrefreservation,
            available=root.available,
        )


def _unused_reservation(dataset: Dataset) -> int:
    # A refreservation's unused part is its own figure; a reservation's is charged to the parent
    # as the larger of reservation and used, so what it holds back is the difference.
    held = max(0, (dataset.reservation or 0) - dataset.used)
    return dataset.usedbyrefreservation + held

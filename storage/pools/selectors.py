"""Reads of pools: the list, their cards, one pool's detail, and pools that can be imported."""

from __future__ import annotations

from dataclasses import dataclass

from storage.dedup.selectors import ddt_or_none
from storage.engine import get_engine
from storage.zfs import errors as zfs
from storage.zfs.base import Dataset, ImportablePool, Pool, PoolStatus
from storage.zfs.space import PoolSpace
from storage.zfs.stats import DedupTable


@dataclass(frozen=True)
class PoolDetail:
    """Everything the pool page shows."""

    pool: Pool
    status: PoolStatus
    ddt: DedupTable | None
    root: Dataset | None
    space: PoolSpace | None = None


def pool_list() -> list[Pool]:
    """Every imported pool, by name."""
    return sorted(get_engine().list_pools(), key=lambda p: p.name)


@dataclass(frozen=True)
class PoolCard:
    """A pool as its card shows it: usable space first, raw space second."""

    pool: Pool
    space: PoolSpace | None  # None when the root cannot be read: the card shows "—"

    @property
    def available(self) -> int | None:
        """What datasets can still use: after parity and reservations."""
        return self.space.available if self.space else None


def pool_cards() -> list[PoolCard]:
    """Every pool with its usable space (FREE in zpool list counts parity), in one listing."""
    engine = get_engine()
    try:
        datasets = engine.list_all_datasets()
    except zfs.ZfsError:
        datasets = []  # the cards still show each pool's raw figures
    by_pool: dict[str, list[Dataset]] = {}
    for dataset in datasets:
        by_pool.setdefault(dataset.pool, []).append(dataset)
    return [
        PoolCard(pool=p, space=PoolSpace.of(_root_first(p.name, by_pool.get(p.name, []))))
        for p in pool_list()
    ]


def _root_first(pool: str, datasets: list[Dataset]) -> list[Dataset]:
    roots = [d for d in datasets if d.name == pool]
    return roots + [d for d in datasets if d.name != pool] if roots else []


def pool_get(name: str) -> Pool:
    """One pool (PoolNotFound if absent)."""
    return get_engine().get_pool(name)


def pool_detail(name: str) -> PoolDetail:
    """A pool with its status, dedup table and root dataset."""
    engine = get_engine()
    pool = engine.get_pool(name)
    datasets = _root_first(name, engine.list_datasets(name))
    return PoolDetail(
        pool=pool,
        status=engine.pool_status(name),
        ddt=ddt_or_none(name),
        root=next(iter(datasets), None),
        space=PoolSpace.of(datasets),
    )


def importable_pools() -> list[ImportablePool]:
    """Pools on the disks that are not imported yet."""
    return get_engine().importable_pools()

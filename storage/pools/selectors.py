"""Reads of pools: the list, their cards, one pool's detail, and pools that can be imported."""

from __future__ import annotations

from dataclasses import dataclass

from storage.dedup.selectors import ddt_or_none
from storage.engine import get_engine
from storage.zfs import errors as zfs
from storage.zfs.base import Dataset, ImportablePool, Pool, PoolStatus
from storage.zfs.stats import DedupTable


@dataclass(frozen=True)
class PoolDetail:
    """Everything the pool page shows."""

    pool: Pool
    status: PoolStatus
    ddt: DedupTable | None
    root: Dataset | None


def pool_list() -> list[Pool]:
    """Every imported pool, by name."""
    return sorted(get_engine().list_pools(), key=lambda p: p.name)


@dataclass(frozen=True)
class PoolCard:
    """A pool as its card shows it: raw space, and what its datasets can still use."""

    pool: Pool
    available: int | None  # the root dataset's available: after parity and reservations


def pool_cards() -> list[PoolCard]:
    """Every pool with the space its datasets can use (FREE in zpool list counts parity)."""
    engine = get_engine()
    cards = []
    for pool in pool_list():
        try:
            available: int | None = engine.get_dataset(pool.name).available
        except zfs.ZfsError:
            available = None  # a pool without a mounted root reads as "—", not as an error
        cards.append(PoolCard(pool=pool, available=available))
    return cards


def pool_get(name: str) -> Pool:
    """One pool (PoolNotFound if absent)."""
    return get_engine().get_pool(name)


def pool_detail(name: str) -> PoolDetail:
    """A pool with its status, dedup table and root dataset."""
    engine = get_engine()
    pool = engine.get_pool(name)
    return PoolDetail(
        pool=pool,
        status=engine.pool_status(name),
        ddt=ddt_or_none(name),
        root=next(iter(engine.list_datasets(name)), None),
    )


def importable_pools() -> list[ImportablePool]:
    """Pools on the disks that are not imported yet."""
    return get_engine().importable_pools()

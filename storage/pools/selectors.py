"""Reads of pools: the list, their cards, one pool's detail, and pools that can be imported."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from storage import validation as v
from storage.dedup.selectors import ddt_or_none
from storage.disks import selectors as disk_selectors
from storage.engine import get_engine
from storage.zfs import errors as zfs
from storage.zfs.base import Dataset, ImportablePool, Pool, PoolStatus
from storage.zfs.layout import CapacityEstimate, estimate_capacity
from storage.zfs.space import PoolSpace
from storage.zfs.stats import DedupTable

MANAGE_DISK = "its Manage disk page (Manage, beside the disk under Devices)"
# `zpool status` tells what to do in zpool commands; the pool page says it with the panel's
# own buttons. Matched on ZFS's words (OpenZFS's zpool_main.c), first match wins.
PANEL_ACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), words)
    for pattern, words in (
        (
            r"online the device using .*replace the device",
            f"Bring the disk back online, or replace it, from {MANAGE_DISK}.",
        ),
        (
            r"attach the missing device",
            f"Reconnect the missing disk, then bring it back online from {MANAGE_DISK}; "
            "or replace it there.",
        ),
        (r"^replace the device", f"Replace the disk from {MANAGE_DISK}."),
        (
            r"determine if the device needs to be replaced",
            "A disk had errors ZFS repaired. Run a SMART test on the Disks page; if the errors "
            f"come back, replace the disk from {MANAGE_DISK}.",
        ),
        (
            r"wait for the resilver",
            "A disk is being rebuilt (resilvered) from the pool's other copies: wait for it "
            "to finish. Its progress shows under Last scan.",
        ),
        (
            r"restore the file in question",
            "Some files are damaged (see Data errors): restore them from a backup; if many "
            "are, restore the whole pool from one.",
        ),
        (
            r"destroy and re-create the pool",
            "The pool cannot be repaired: destroy it (Destroy, at the top of this page) and "
            "create it again from a backup.",
        ),
        (
            r"make sure the affected devices are connected",
            "The pool stopped because disks could not be reached: make sure they are "
            "connected and powered, and check them on the Disks page.",
        ),
        (
            r"support the configured block size",
            "A disk has larger sectors than the pool expects (slower): replace it from "
            f"{MANAGE_DISK} with one that matches.",
        ),
        (
            r"export this pool on all systems",
            "Another machine used this pool last: export it there, then import it here "
            "(Import pool on the Storage page).",
        ),
        (
            r"zpool upgrade",
            "Newer ZFS features are available. The panel leaves them off so that older "
            "systems can still import the pool: nothing needs doing.",
        ),
    )
)


@dataclass(frozen=True)
class PanelAction:
    """What to do about a pool, in the panel's words, with `zpool status`'s own kept beside."""

    text: str
    zfs_text: str  # the action line of `zpool status`, for a tooltip or details


def panel_action(action: str) -> PanelAction | None:
    """`zpool status`'s action in the panel's words (its own words, said as ZFS's, if unknown)."""
    action = " ".join(action.split())
    if not action:
        return None
    words = next((w for pattern, w in PANEL_ACTIONS if pattern.search(action)), None)
    return PanelAction(text=words or f"ZFS says: {action}", zfs_text=action)


@dataclass(frozen=True)
class PoolDetail:
    """Everything the pool page shows."""

    pool: Pool
    status: PoolStatus
    ddt: DedupTable | None
    root: Dataset | None
    space: PoolSpace | None = None
    action: PanelAction | None = None  # status.action in the panel's words


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
    status = engine.pool_status(name)
    return PoolDetail(
        pool=pool,
        status=status,
        ddt=ddt_or_none(name),
        root=next(iter(datasets), None),
        space=PoolSpace.of(datasets),
        action=panel_action(status.action),
    )


@dataclass(frozen=True)
class CapacityPreview:
    """The create form's line under the disks: an estimate, or why there is none yet."""

    estimate: CapacityEstimate | None
    problem: str = ""


def capacity_preview(*, layout: str, disks: Sequence[str], width: int | None) -> CapacityPreview:
    """What the chosen layout and disks would give (sizes read from the disk listing)."""
    if not disks:
        return CapacityPreview(None, "Pick the data disks to see the usable space.")
    try:
        vdev_type, per_vdev = v.validate_layout(layout, len(disks), width)
    except ValidationError as exc:
        return CapacityPreview(None, " ".join(exc.messages))
    sizes = {row.name: row.size for row in disk_selectors.disk_list()}
    unknown = [d for d in disks if d not in sizes]
    if unknown:
        return CapacityPreview(None, f"There is no disk named “{unknown[0]}”.")
    chosen = [sizes[d] for d in disks]
    groups = [chosen[i : i + per_vdev] for i in range(0, len(chosen), per_vdev)]
    return CapacityPreview(estimate_capacity(vdev_type, groups))


def importable_pools() -> list[ImportablePool]:
    """Pools on the disks that are not imported yet."""
    return get_engine().importable_pools()

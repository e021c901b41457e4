"""Writes to pools: create, destroy, export, import; checked first, then done or run as a job."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User

from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail
from storage import registry
from storage import validation as v
from storage.disks import selectors as disk_selectors
from storage.engine import get_engine
from storage.errors import engine_call
from storage.pools import selectors
from storage.zfs.base import PoolLayout


def _pool_layout(
    *, layout: str, disks: Sequence[str], width: int | None, extra: dict[str, Sequence[str]]
) -> PoolLayout:
    """Check the layout's rules and that every disk is free; build the engine's layout."""
    if not disks:
        raise fail("disks", "Pick the disks for the pool.")
    vdev_type, per_vdev = v.validate_layout(layout, len(disks), width)
    chosen = [*disks, *(d for group in extra.values() for d in group)]
    if len(set(chosen)) != len(chosen):
        raise fail("disks", "A disk can be used only once in a pool.")
    known = {row.name: row for row in disk_selectors.disk_list()}
    for name in chosen:
        row = known.get(name)
        if row is None:
            raise fail("disks", f"There is no disk named “{name}”.")
        if not row.free:
            raise fail("disks", f"Disk {name} is in use ({row.pool or row.other_use}).")
    groups = tuple(tuple(disks[i : i + per_vdev]) for i in range(0, len(disks), per_vdev))
    return PoolLayout(
        type=vdev_type,
        groups=groups,
        cache=tuple(extra.get("cache", ())),
        log=tuple(extra.get("log", ())),
        spares=tuple(extra.get("spares", ())),
    )


def pool_create(
    *,
    name: str,
    layout: str,
    disks: Sequence[str],
    width: int | None = None,
    cache: Sequence[str] = (),
    log: Sequence[str] = (),
    spares: Sequence[str] = (),
    user: User | AnonymousUser | None = None,
) -> Job:
    """Validate a new pool and start the job that creates it."""
    name = v.validate_pool_name(name)
    if any(p.name == name for p in selectors.pool_list()):
        raise fail("name", "A pool with this name already exists.")
    pool_layout = _pool_layout(
        layout=layout,
        disks=list(disks),
        width=width,
        extra={"cache": cache, "log": log, "spares": spares},
    )
    engine_call(pool_layout.validate, "disks")
    return job_start(
        kind="pool.create",
        title=f"Create pool {name}",
        task="storage.pool_create",
        user=user,
        name=name,
        vdev_type=pool_layout.type,
        groups=[list(g) for g in pool_layout.groups],
        cache=list(cache),
        log=list(log),
        spares=list(spares),
    )


def pool_destroy(*, name: str, confirm: str, user: User | AnonymousUser | None = None) -> Job:
    """Check the confirmation and start the job that destroys the pool and all its data."""
    engine_call(lambda: selectors.pool_get(name))
    v.check_confirmation(name, confirm)
    registry.refuse_if_held(name, prefix=True)
    return job_start(
        kind="pool.destroy",
        title=f"Destroy pool {name}",
        task="storage.pool_destroy",
        user=user,
        name=name,
    )


def pool_export(*, name: str) -> None:
    """Export a pool so that it can be moved or imported again later."""
    registry.refuse_if_held(name, prefix=True)
    engine_call(lambda: get_engine().export_pool(name))


def pool_import(*, name_or_guid: str, new_name: str = "") -> None:
    """Import a pool found on the disks, optionally under a new name."""
    if new_name:
        new_name = v.validate_pool_name(new_name, "new_name")
    if not any(name_or_guid in (p.name, p.guid) for p in selectors.importable_pools()):
        raise fail("pool", f"No importable pool is named “{name_or_guid}”.")
    engine_call(lambda: get_engine().import_pool(name_or_guid, new_name=new_name or None))

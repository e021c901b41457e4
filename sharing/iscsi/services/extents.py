"""Writes to extents (what a LUN serves) and their mapping to targets as LUNs."""

from __future__ import annotations

from pathlib import Path

from django.db import IntegrityError

from nasui.validation import fail
from sharing.apply import serialized
from sharing.iscsi import runtime
from sharing.iscsi.selectors import lowest_free_lun
from sharing.iscsi.services.common import ISCSI, saved_and_applied, updated
from sharing.models import Extent, Target, TargetExtent
from storage import paths
from storage.datasets import selectors as storage_selectors


def _check_source(kind: str, zvol: str, path: str, extent: Extent | None) -> tuple[str, str]:
    """The extent's zvol must exist, or its file must lie inside a pool; one extent each."""
    if kind == Extent.Kind.ZVOL:
        if not zvol:
            raise fail("zvol", "Pick the zvol this extent serves.")
        if zvol not in {d.name for d in storage_selectors.dataset_list(volumes=True)}:
            raise fail("zvol", f"There is no zvol named “{zvol}”.")
        clash = Extent.objects.filter(zvol=zvol)
        source, path = zvol, ""
    elif kind == Extent.Kind.FILE:
        problem = paths.pool_path_problem(path)
        if problem:
            raise fail("path", problem)
        # Stored resolved: a link swapped in later cannot redirect the extent.
        path = str(paths.real_path(path))
        if not Path(path).is_file():
            raise fail(
                "path",
                f"There is no file at {path}: make it first (a sparse file as large as the "
                "disk should be, e.g. truncate -s 20G), or share a zvol instead.",
            )
        clash = Extent.objects.filter(path=path)
        source, zvol = path, ""
    else:
        raise fail("kind", "Pick zvol or file.")
    if extent is not None:
        clash = clash.exclude(pk=extent.pk)
    if clash.exists():
        raise fail(kind, f"{source} is already the extent “{clash.first()}”.")
    return zvol, path


@serialized(*ISCSI)
def extent_create(
    *,
    name: str,
    kind: str = Extent.Kind.ZVOL,
    zvol: str = "",
    path: str = "",
    blocksize: int = 512,
    readonly: bool = False,
    enabled: bool = True,
    comment: str = "",
) -> Extent:
    """A new extent over a zvol or a file."""
    name = name.strip()
    if not name:
        raise fail("name", "Give the extent a name.")
    if Extent.objects.filter(name=name).exists():
        raise fail("name", "An extent with this name exists.")
    if blocksize not in (512, 1024, 2048, 4096):
        raise fail("blocksize", "Logical block size must be 512, 1024, 2048 or 4096.")
    zvol, path = _check_source(kind, zvol.strip(), path.strip(), None)
    return saved_and_applied(
        lambda: Extent.objects.create(
            name=name,
            kind=kind,
            zvol=zvol,
            path=path,
            blocksize=blocksize,
            readonly=readonly,
            enabled=enabled,
            comment=comment.strip(),
        )
    )


@serialized(*ISCSI)
def extent_update(*, extent: Extent, readonly: bool, enabled: bool, comment: str = "") -> Extent:
    """Change an extent's read-only and enabled flags and comment."""
    return updated(extent, readonly=readonly, enabled=enabled, comment=comment.strip())


def extent_delete(*, extent: Extent) -> None:
    """Delete an extent (its LUN disappears from the target); the zvol itself stays."""
    saved_and_applied(extent.delete)


@serialized(*ISCSI)
def association_create(
    *, target: Target, extent: Extent, lun_id: int | None = None
) -> TargetExtent:
    """Map an extent to a target as a LUN (the lowest free id when none is given)."""
    if TargetExtent.objects.filter(extent=extent).exists():
        raise fail("extent", f"Extent “{extent}” is already mapped to a target.")
    first = runtime.first_lun()
    if lun_id is None:
        lun_id = lowest_free_lun(target, first)
    elif lun_id < first:
        raise fail("lun_id", f"The {runtime.engine_name()} target starts LUN ids at {first}.")
    if target.luns.filter(lun_id=lun_id).exists():
        raise fail("lun_id", f"LUN {lun_id} is taken on this target.")
    try:
        return saved_and_applied(
            lambda: TargetExtent.objects.create(target=target, extent=extent, lun_id=lun_id)
        )
    except IntegrityError as exc:
        raise fail("lun_id", f"LUN {lun_id} is taken on this target.") from exc


def association_delete(*, association: TargetExtent) -> None:
    """Remove a LUN from its target."""
    saved_and_applied(association.delete)

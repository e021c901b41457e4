"""Snapshots of the sandbox engine (a mixin of SandboxZfsEngine): copies kept beside the data.

A snapshot of a file system is a copy of its directory, of a zvol a sparse copy of its file
(`cp --sparse=always`, so a mostly empty zvol stays small), at `node/snaps/NAME`. Its
`referenced` is the dataset's at the moment it was taken (from the last scan); its `used` is
the size of the files it holds that the live data no longer has as they were. Snapshots are
not charged to the pool's space: the sandbox proves the flows, OpenZFS the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from storage.zfs.base import DiffEntry, Snapshot
from storage.zfs.errors import (
    DatasetBusy,
    DatasetExists,
    HasClones,
    InvalidProperty,
    NewerSnapshots,
    SnapshotNotFound,
    ZfsError,
)
from storage.zfs.names import check_dataset_name
from storage.zfs.sandbox import figures, paths, props
from storage.zfs.sandbox.copies import copy_tree, remove_tree, restore_tree, tree_diff, unique_bytes
from storage.zfs.sandbox.names import split_name
from storage.zfs.sandbox.stamps import new_guid, next_seq
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.tree import PoolTree
from storage.zfs.snapshots import TASK_PROPERTY, check_snapshot_name

SNAPS = "snaps"


class SnapshotOps:
    """list/create/destroy/rollback/clone/diff/hold over copies of the data."""

    _state: StateStore
    _clock: Callable[[], float]

    def _find(self, state: State, name: str) -> tuple[PoolTree, str]:
        raise NotImplementedError  # provided by DatasetOps

    def _parent_for_new(self, state: State, name: str) -> tuple[PoolTree, str]:
        raise NotImplementedError  # provided by DatasetOps

    # -- reads ---------------------------------------------------------------------------
    def list_snapshots(self, name: str, *, recursive: bool = False) -> list[Snapshot]:
        """Snapshots of `name` (and its descendants when recursive), oldest first per dataset."""
        tree, rel = self._find(self._state.read(), name)
        targets = [rel, *tree.descendants(rel)] if recursive else [rel]
        return [_snapshot(tree, t, short) for t in targets for short in snapshot_names(tree, t)]

    def diff(self, snapshot: str, other: str = "") -> list[DiffEntry]:
        """Paths added, removed or modified since the snapshot (renames show as -/+)."""
        tree, rel, short = self._snap(self._state.read(), snapshot)
        if tree.kind(rel) != props.FILESYSTEM:
            raise ZfsError(
                f"cannot open '{tree.full_name(rel)}': operation not applicable to datasets"
                " of this type"
            )
        live = tree.data_path(rel)
        if other:
            _, _, other_short = self._snap(self._state.read(), other)
            live = copy_path(tree, rel, other_short)
        return tree_diff(copy_path(tree, rel, short), live, str(tree.data_path(rel)))

    # -- changes -------------------------------------------------------------------------
    def create_snapshot(
        self, name: str, *, recursive: bool = False, properties: Mapping[str, str] | None = None
    ) -> None:
        """Copy the dataset's data (and its descendants' when recursive) under one lock."""
        dataset, short = check_snapshot_name(name)
        local = {k: str(v) for k, v in (properties or {}).items()}
        for key in local:
            if not props.is_user_property(key):
                raise InvalidProperty(f"property '{key}' cannot be set on a snapshot here")
        with self._state.transaction() as state:
            tree, rel = self._find(state, dataset)
            targets = [rel, *tree.descendants(rel)] if recursive else [rel]
            for target in targets:
                if short in _snaps(tree, target):
                    raise DatasetExists(
                        f"cannot create snapshot '{tree.full_name(target)}@{short}':"
                        " dataset already exists"
                    )
            calc = figures.SpaceCalculator(tree)
            seq = next_seq(tree)  # one createtxg for the whole recursive snapshot
            for target in targets:
                copy_tree(tree.data_path(target), copy_path(tree, target, short))
                _snaps(tree, target)[short] = {
                    "created": int(self._clock()),
                    "seq": seq,
                    "guid": new_guid(),
                    "props": local,
                    "holds": [],
                    "clones": [],
                    "referenced": calc.space(target).referenced,
                }

    def destroy_snapshots(
        self, dataset: str, names: Sequence[str], *, recursive: bool = False
    ) -> None:
        """Destroy the named snapshots, all or none: a clone or a hold refuses the lot."""
        for short in names:
            check_snapshot_name(f"{dataset}@{short}")
        with self._state.transaction() as state:
            tree, rel = self._find(state, dataset)
            targets = [rel, *tree.descendants(rel)] if recursive else [rel]
            doomed = [(t, s) for t in targets for s in names if s in _snaps(tree, t)]
            if names and not doomed:
                raise SnapshotNotFound(
                    "could not find any snapshots to destroy; check snapshot names."
                )
            for target, short in doomed:
                _check_destroyable(tree, target, short)
            for target, short in doomed:
                del _snaps(tree, target)[short]
                remove_tree(copy_path(tree, target, short))

    def rollback(self, snapshot: str, *, destroy_newer: bool = False) -> None:
        """Put the snapshot's data back; newer snapshots must go, and only when allowed."""
        with self._state.transaction() as state:
            tree, rel, short = self._snap(state, snapshot)
            order = snapshot_names(tree, rel)
            newer = order[order.index(short) + 1 :]
            full = tree.full_name(rel)
            if newer and not destroy_newer:
                raise NewerSnapshots(
                    f"cannot rollback to '{snapshot}': more recent snapshots or bookmarks exist",
                    stderr=_listing(
                        f"cannot rollback to '{snapshot}': more recent snapshots or bookmarks"
                        " exist\nuse '-r' to force deletion of the following snapshots and"
                        " bookmarks:",
                        [f"{full}@{n}" for n in newer],
                    ),
                )
            clones = [c for n in newer for c in _snaps(tree, rel)[n]["clones"]]
            if clones:
                raise HasClones(
                    f"cannot rollback to '{snapshot}': clones of previous snapshots exist",
                    stderr=_listing(
                        f"cannot rollback to '{snapshot}': clones of previous snapshots exist\n"
                        "use '-R' to force deletion of the following clones and dependents:",
                        clones,
                    ),
                )
            restore_tree(copy_path(tree, rel, short), tree.data_path(rel))
            for name in newer:
                del _snaps(tree, rel)[name]
                remove_tree(copy_path(tree, rel, name))

    def clone(
        self, snapshot: str, target: str, *, properties: Mapping[str, str] | None = None
    ) -> None:
        """A new dataset or zvol holding the snapshot's data, its origin recorded."""
        check_dataset_name(target)
        with self._state.transaction() as state:
            tree, rel, short = self._snap(state, snapshot)
            if split_name(target)[0] != tree.name:
                raise InvalidProperty("a clone must be in the same pool as its snapshot")
            new_tree, new_rel = self._parent_for_new(state, target)
            kind = tree.kind(rel)
            given = (properties or {}).items()
            local = {k: props.normalize(k, str(v), kind) for k, v in given}
            record = tree.datasets[rel]
            if kind == props.VOLUME:
                # A clone of a zvol keeps its size but, like OpenZFS's, reserves nothing.
                local = {"volsize": record["props"]["volsize"], **local}
                block = record["props"].get("volblocksize")
                if block:
                    local["volblocksize"] = block
            new_tree.datasets[new_rel] = {
                "type": kind,
                "props": local,
                "created": self._clock(),
                "usage": {},
                "origin": snapshot,
            }
            copy_tree(copy_path(tree, rel, short), new_tree.data_path(new_rel))
            _snaps(tree, rel)[short]["clones"].append(target)

    def hold(self, snapshot: str, tag: str) -> None:
        """Add a hold tag (a tag may be held once), in OpenZFS's words."""
        head = f"cannot hold snapshot '{snapshot}'"
        with self._state.transaction() as state:
            tree, rel, short = self._held_snap(state, snapshot, head)
            holds = holds_of(tree, rel, short)
            if tag in holds:
                raise DatasetExists(f"{head}: tag already exists on this dataset")
            holds.append(tag)

    def release(self, snapshot: str, tag: str) -> None:
        """Drop a hold tag, in OpenZFS's words."""
        head = f"cannot release hold from snapshot '{snapshot}'"
        with self._state.transaction() as state:
            tree, rel, short = self._held_snap(state, snapshot, head)
            holds = holds_of(tree, rel, short)
            if tag not in holds:
                raise ZfsError(f"{head}: no such tag on this dataset")
            holds.remove(tag)

    def hold_tags(self, snapshots: Sequence[str]) -> dict[str, list[str]]:
        """Each snapshot's hold tags, those with none left out."""
        found: dict[str, list[str]] = {}
        with self._state.transaction() as state:
            for snapshot in snapshots:
                tree, rel, short = self._held_snap(state, snapshot, f"cannot open '{snapshot}'")
                tags = holds_of(tree, rel, short)
                if tags:
                    found[snapshot] = list(tags)
        return found

    # -- helpers -------------------------------------------------------------------------
    def _held_snap(self, state: State, snapshot: str, head: str) -> tuple[PoolTree, str, str]:
        """_snap, a missing snapshot told as `zfs hold` / `zfs release` tell it."""
        try:
            return self._snap(state, snapshot)
        except SnapshotNotFound:
            raise SnapshotNotFound(f"{head}: dataset does not exist") from None

    def _snap(self, state: State, snapshot: str) -> tuple[PoolTree, str, str]:
        """(tree, dataset rel, short name) of an existing snapshot."""
        dataset, short = check_snapshot_name(snapshot)
        tree, rel = self._find(state, dataset)
        if short not in _snaps(tree, rel):
            raise SnapshotNotFound(f"cannot open '{snapshot}': dataset does not exist")
        return tree, rel, short


def forget_clone(tree: PoolTree, rel: str) -> None:
    """A clone being destroyed no longer holds its origin snapshot."""
    origin = tree.datasets[rel].get("origin")
    if not origin:
        return
    dataset, short = origin.split("@", 1)
    origin_rel = split_name(dataset)[1]
    snap = tree.datasets.get(origin_rel, {}).get("snapshots", {}).get(short)
    if snap and tree.full_name(rel) in snap["clones"]:
        snap["clones"].remove(tree.full_name(rel))


def snapshot_names(tree: PoolTree, rel: str) -> list[str]:
    """The dataset's snapshots' short names, oldest first."""
    found = tree.datasets[rel].get("snapshots", {})
    return sorted(found, key=lambda short: found[short]["seq"])


def clones_of(tree: PoolTree, rel: str) -> list[str]:
    """Every clone made from one of the dataset's snapshots."""
    return [c for snap in _snaps(tree, rel).values() for c in snap["clones"]]


def copy_path(tree: PoolTree, rel: str, short: str) -> Path:
    """Where a snapshot's copy lives: node/snaps/NAME (a directory or a zvol file)."""
    return paths.node_dir(tree.dir, rel) / SNAPS / short


def holds_of(tree: PoolTree, rel: str, short: str) -> list[str]:
    """A snapshot's hold tags (the record's own list: changing it changes the snapshot)."""
    return _snaps(tree, rel)[short]["holds"]  # type: ignore[no-any-return]


def _snaps(tree: PoolTree, rel: str) -> dict[str, Any]:
    return tree.datasets[rel].setdefault("snapshots", {})  # type: ignore[no-any-return]


def _snapshot(tree: PoolTree, rel: str, short: str) -> Snapshot:
    record = _snaps(tree, rel)[short]
    live = tree.data_path(rel)
    return Snapshot(
        name=f"{tree.full_name(rel)}@{short}",
        created=int(record["created"]),
        used=unique_bytes(copy_path(tree, rel, short), live),
        referenced=int(record["referenced"]),
        holds=len(record["holds"]),
        clones=tuple(record["clones"]),
        task=record["props"].get(TASK_PROPERTY, ""),
    )


def _check_destroyable(tree: PoolTree, rel: str, short: str) -> None:
    """A clone or a hold keeps a snapshot, with OpenZFS's words."""
    record = _snaps(tree, rel)[short]
    full = f"{tree.full_name(rel)}@{short}"
    if record["clones"]:
        raise HasClones(
            f"cannot destroy '{full}': snapshot has dependent clones",
            stderr=_listing(
                f"cannot destroy '{full}': snapshot has dependent clones\n"
                "use '-R' to destroy the following datasets:",
                record["clones"],
            ),
        )
    if record["holds"]:
        raise DatasetBusy(f"cannot destroy snapshot {full}: dataset is busy")


def _listing(head: str, names: Sequence[str]) -> str:
    return "\n".join([head, *names]) + "\n"

"""Dataset and zvol operations of the sandbox engine (a mixin of SandboxZfsEngine)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from storage.zfs.base import Dataset, PropertyValue
from storage.zfs.errors import (
    DatasetBusy,
    DatasetExists,
    DatasetNotFound,
    HasChildren,
    HasClones,
    InvalidProperty,
    NoSpace,
    PoolNotFound,
    VolumeShrink,
    ZfsError,
)
from storage.zfs.names import check_dataset_name
from storage.zfs.sandbox import busy, crypt, figures, props, snapshots
from storage.zfs.sandbox.memo import LISTINGS
from storage.zfs.sandbox.names import split_name
from storage.zfs.sandbox.proptable import property_table
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.tree import PoolTree

_RESERVATIONS = ("reservation", "refreservation")


class DatasetOps:
    """create/set/inherit/grow/destroy and the reads of datasets and zvols."""

    _state: StateStore
    _clock: Callable[[], float]

    def _pool(self, state: State, name: str) -> PoolTree:
        raise NotImplementedError  # provided by the engine

    def _imported(self, state: State) -> list[PoolTree]:
        raise NotImplementedError  # provided by the engine

    def _find(self, state: State, name: str) -> tuple[PoolTree, str]:
        """(pool tree, relative name) of an existing dataset, DatasetNotFound otherwise."""
        check_dataset_name(name)
        pool, rel = split_name(name)
        try:
            tree = self._pool(state, pool)
        except PoolNotFound:
            raise DatasetNotFound(f"cannot open '{name}': dataset does not exist") from None
        if rel not in tree.datasets:
            raise DatasetNotFound(f"cannot open '{name}': dataset does not exist")
        return tree, rel

    # -- reads ---------------------------------------------------------------------------
    def list_datasets(self, root: str) -> list[Dataset]:
        """`root` and everything under it, from the last rescan's figures."""
        return LISTINGS.listing(self._state, ("under", root), lambda: self._list_under(root))

    def list_all_datasets(self) -> list[Dataset]:
        """Every imported pool's datasets, from one read of the state."""
        return LISTINGS.listing(self._state, ("every pool",), self._list_every_pool)

    def _list_under(self, root: str) -> list[Dataset]:
        tree, rel = self._find(self._state.read(), root)
        return _in_tree_order(tree, [rel, *tree.descendants(rel)])

    def _list_every_pool(self) -> list[Dataset]:
        found = []
        for tree in self._imported(self._state.read()):
            found += _in_tree_order(tree, list(tree.datasets))
        return found

    def get_dataset(self, name: str) -> Dataset:
        """One dataset or zvol."""
        tree, rel = self._find(self._state.read(), name)
        return figures.dataset(tree, figures.SpaceCalculator(tree), rel)

    def get_properties(self, name: str, properties: Sequence[str] = ()) -> dict[str, PropertyValue]:
        """Properties with their sources (local, inherited from X, default, -)."""
        tree, rel = self._find(self._state.read(), name)
        return property_table(tree, figures.SpaceCalculator(tree), rel, properties)

    def zvol_path(self, name: str) -> Path:
        """The zvol's backing file, for tgt's rdwr backing store."""
        tree, rel = self._find(self._state.read(), name)
        if tree.kind(rel) != props.VOLUME:
            raise InvalidProperty(f"{name} is not a zvol")
        return tree.data_path(rel)

    # -- create --------------------------------------------------------------------------
    def _parent_for_new(self, state: State, name: str) -> tuple[PoolTree, str]:
        """(tree, rel) for a dataset about to be created, after the checks zfs create makes."""
        check_dataset_name(name)
        pool, rel = split_name(name)
        if not rel:
            raise DatasetExists(f"cannot create '{name}': dataset already exists")
        tree = self._pool(state, pool)
        if rel in tree.datasets:
            raise DatasetExists(f"cannot create '{name}': dataset already exists")
        parent = tree.parent(rel) or ""
        if parent not in tree.datasets:
            raise DatasetNotFound(f"cannot create '{name}': parent does not exist")
        if tree.kind(parent) != props.FILESYSTEM:
            raise ZfsError(f"cannot create '{name}': parent is not a filesystem")
        return tree, rel

    def create_dataset(
        self, name: str, *, properties: Mapping[str, str] | None = None, key: str | None = None
    ) -> None:
        """Create a file system (a directory holding users' files)."""
        wanted, given = crypt.split(properties or {})
        local = _normalized(given, props.FILESYSTEM)
        with self._state.transaction() as state:
            tree, rel = self._parent_for_new(state, name)
            parent = tree.parent(rel) or ""
            _check_new_reservation(tree, parent, local, name)
            record = _record(props.FILESYSTEM, local, self._clock())
            tree.datasets[rel] = _with_crypt(
                record, crypt.new_record(tree, parent, wanted, key, name)
            )
            tree.data_path(rel).mkdir(parents=True, exist_ok=True)

    def create_zvol(
        self,
        name: str,
        *,
        size: int,
        volblocksize: int | None = None,
        sparse: bool = False,
        properties: Mapping[str, str] | None = None,
        key: str | None = None,
    ) -> None:
        """Create a zvol: a sparse file of `size` bytes, thick (refreservation) unless sparse."""
        wanted, given = crypt.split(properties or {})
        if volblocksize:
            given["volblocksize"] = str(volblocksize)
        given["volsize"] = str(size)
        local = _normalized(given, props.VOLUME)
        block = int(local.get("volblocksize", props.DEFAULTS["volblocksize"]))
        if int(local["volsize"]) % block:
            raise InvalidProperty(f"volsize {size} must be a multiple of volblocksize {block}")
        if not sparse:
            local.setdefault("refreservation", local["volsize"])
        with self._state.transaction() as state:
            tree, rel = self._parent_for_new(state, name)
            parent = tree.parent(rel) or ""
            _check_new_reservation(tree, parent, local, name)
            record = _record(props.VOLUME, local, self._clock())
            tree.datasets[rel] = _with_crypt(
                record, crypt.new_record(tree, parent, wanted, key, name)
            )
            path = tree.data_path(rel)
            _sparse_file(path, size)

    # -- change --------------------------------------------------------------------------
    def set_properties(self, name: str, properties: Mapping[str, str]) -> None:
        """Set properties, all or nothing; volsize goes through grow_zvol's rules."""
        if not properties:
            return
        if "volsize" in properties:
            rest = {k: v for k, v in properties.items() if k != "volsize"}
            self.set_properties(name, rest)
            kind = props.VOLUME
            self.grow_zvol(name, int(props.normalize("volsize", properties["volsize"], kind)))
            return
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            local = _normalized(properties, tree.kind(rel))
            if "volblocksize" in local:
                raise InvalidProperty("property 'volblocksize' is readonly once the zvol exists")
            _check_limits(tree, rel, local, name)
            tree.datasets[rel]["props"].update(local)

    def inherit_property(self, name: str, prop: str, *, recursive: bool = False) -> None:
        """Drop the local value (on descendants too when recursive) so it is inherited."""
        if not props.is_user_property(prop) and prop not in props.INHERITABLE:
            if prop in props.DEFAULTS or prop in props.STATISTICS or prop == "volsize":
                raise InvalidProperty(f"'{prop}' property cannot be inherited")
            raise InvalidProperty(f"invalid property {prop!r}")
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            targets = [rel, *tree.descendants(rel)] if recursive else [rel]
            for target in targets:
                tree.datasets[target]["props"].pop(prop, None)

    def grow_zvol(self, name: str, new_size: int) -> None:
        """Raise volsize (and a thick zvol's refreservation); VolumeShrink if smaller."""
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            if tree.kind(rel) != props.VOLUME:
                raise InvalidProperty(f"{name} is not a zvol")
            local = tree.datasets[rel]["props"]
            current = int(local["volsize"])
            if new_size < current:
                raise VolumeShrink(f"refusing to shrink {name} from {current} to {new_size} bytes")
            if new_size == current:
                return
            block = tree.int_value(rel, "volblocksize")
            if new_size % block:
                raise InvalidProperty(f"size {new_size} is not a multiple of volblocksize {block}")
            # Like ZFS, a thick zvol's refreservation follows its volsize.
            if int(local.get("refreservation", 0)) >= current:
                change = {"refreservation": str(new_size)}
                _check_limits(tree, rel, change, name)
                local.update(change)
            local["volsize"] = str(new_size)
            with open(tree.data_path(rel), "r+b") as handle:
                handle.truncate(new_size)

    def destroy_dataset(self, name: str, *, recursive: bool = False, force: bool = False) -> None:
        """Destroy a dataset or zvol; children need recursive, an open zvol is busy."""
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            if not rel:
                raise ZfsError(f"{name} is a pool's root dataset: destroy the pool instead")
            children = tree.descendants(rel)
            _check_no_dependents(tree, rel, children, recursive, name)
            node = tree.data_path(rel).parent
            holders = busy.open_files_under(node)
            # -f force-unmounts a file system, but nothing makes a zvol in use go away.
            if holders and (not force or tree.kind(rel) == props.VOLUME):
                raise DatasetBusy(
                    f"cannot destroy '{name}': dataset is busy ({busy.describe(holders)})"
                )
            for target in [rel, *children]:  # as `zfs destroy -r`: a held snapshot stops it
                for short in snapshots.snapshot_names(tree, target):
                    if snapshots.holds_of(tree, target, short):
                        full = f"{tree.full_name(target)}@{short}"
                        raise DatasetBusy(f"cannot destroy snapshot {full}: dataset is busy")
            for target in [rel, *children]:
                snapshots.forget_clone(tree, target)
                del tree.datasets[target]
            shutil.rmtree(node, ignore_errors=True)


def _check_no_dependents(
    tree: PoolTree, rel: str, children: list[str], recursive: bool, name: str
) -> None:
    """Children and snapshots need -r; a clone of any of their snapshots refuses it all."""
    inside = set([rel, *children])
    clones = [
        c for t in inside for c in snapshots.clones_of(tree, t) if split_name(c)[1] not in inside
    ]
    if clones:
        raise HasClones(
            f"cannot destroy '{name}': filesystem has dependent clones",
            stderr=f"cannot destroy '{name}': filesystem has dependent clones\n"
            "use '-R' to destroy the following datasets:\n" + "\n".join(clones) + "\n",
        )
    named = [tree.full_name(c) for c in children]
    named += [f"{name}@{s}" for s in snapshots.snapshot_names(tree, rel)]
    if named and not recursive:
        raise HasChildren(
            f"cannot destroy '{name}': filesystem has children"
            f" (use '-r' to destroy {', '.join(named[:5])})"
        )


def _record(kind: str, local: dict[str, str], now: float) -> dict[str, Any]:
    return {"type": kind, "props": local, "created": now, "usage": {}}


def _with_crypt(record: dict[str, Any], crypt_record: dict[str, Any] | None) -> dict[str, Any]:
    """The dataset's record with its encryption state, when it is encrypted."""
    return record if crypt_record is None else {**record, "crypt": crypt_record}


def _normalized(given: Mapping[str, str], kind: str) -> dict[str, str]:
    return {key: props.normalize(key, str(value), kind) for key, value in given.items()}


def _check_limits(tree: PoolTree, rel: str, change: Mapping[str, str], name: str) -> None:
    """Refuse a quota under what is used, or a reservation bigger than the free space."""
    space = figures.SpaceCalculator(tree).space(rel)
    for prop in ("quota", "refquota"):
        limit = int(change.get(prop, 0))
        floor = space.used if prop == "quota" else space.referenced
        if limit and limit < floor:
            raise InvalidProperty(
                f"cannot set {prop} of '{name}' to {limit}: less than the {floor} bytes used"
            )
    for prop in _RESERVATIONS:
        if prop not in change:
            continue
        current = tree.int_value(rel, prop)
        wanted = int(change[prop])
        base = space.referenced if prop == "refreservation" else space.used
        # Only the part of a reservation beyond what is already written takes new space.
        extra = max(0, wanted - max(current, base))
        if extra > space.available:
            raise NoSpace(f"cannot set {prop} of '{name}': size is greater than available space")


def _check_new_reservation(
    tree: PoolTree, parent: str, local: Mapping[str, str], name: str
) -> None:
    """A new dataset's reservation (or a thick zvol's) must fit what its parent has free."""
    wanted = max(int(local.get(prop, 0)) for prop in _RESERVATIONS)
    available = figures.SpaceCalculator(tree).space(parent).available
    if wanted > available:
        raise NoSpace(
            f"cannot create '{name}': size is greater than available space "
            f"({wanted} bytes wanted, {available} available)"
        )


def _sparse_file(path: Path, size: int) -> None:
    """A sparse file of `size` bytes; nothing is left behind when the file system refuses it."""
    made_dir = not path.parent.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "wb") as handle:
            handle.truncate(size)
    except OSError as exc:
        path.unlink(missing_ok=True)
        if made_dir:
            path.parent.rmdir()
        # ext4 stops at 16 TiB a file: a limit of the sandbox's files, not of ZFS.
        raise InvalidProperty(
            f"volsize {size}: the sandbox cannot hold a zvol this large ({exc.strerror})"
        ) from exc


def _in_tree_order(tree: PoolTree, rels: list[str]) -> list[Dataset]:
    """These datasets of one pool as `zfs list` shows them: parents before children."""
    calc = figures.SpaceCalculator(tree)
    rels = sorted(rels, key=lambda n: n.split("/") if n else [])
    return [figures.dataset(tree, calc, n) for n in rels]

"""What a sandbox receive does to its target, under the state lock: OpenZFS's checks and words,
then the arrived snapshot moved into the pool.

The checks run when a section's header arrives (a refusal then stops the sender at once) and
again in the transaction that lands the section, since the target may have changed while the
data was arriving. Every check comes before the first change: a refusal leaves all as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import NoReturn

from storage.zfs.errors import DatasetBusy, DatasetExists, DatasetNotFound, HasClones, ZfsError
from storage.zfs.sandbox import crypt, paths, props
from storage.zfs.sandbox.copies import remove_tree, restore_tree
from storage.zfs.sandbox.names import split_name
from storage.zfs.sandbox.replica import written
from storage.zfs.sandbox.snapshots import copy_path, snapshot_names
from storage.zfs.sandbox.stamps import guid_of, next_seq
from storage.zfs.sandbox.state import State
from storage.zfs.sandbox.streams import SectionHeader
from storage.zfs.sandbox.tokens import RESUME, ResumeToken, drop_partial, partial_path
from storage.zfs.sandbox.tree import PoolTree

Find = Callable[[State, str], tuple[PoolTree, str]]
Place = tuple[PoolTree, str]


@dataclass(frozen=True)
class Options:
    """`zfs receive -F` (force), `-s` (resumable) and `-o name=value` (properties)."""

    force: bool = False
    resumable: bool = False
    properties: tuple[tuple[str, str], ...] = ()


def words(header: SectionHeader) -> str:
    """How OpenZFS opens a refusal of this kind of stream."""
    if header.from_guid is None:
        return "cannot receive new filesystem stream"
    return "cannot receive incremental stream"


def locate(state: State, find: Find, name: str) -> Place | None:
    """The dataset if it exists."""
    try:
        return find(state, name)
    except DatasetNotFound:
        return None


def check(
    state: State, find: Find, target: str, header: SectionHeader, options: Options, resuming: bool
) -> Place | None:
    """Where the section lands (None: a dataset to create), or OpenZFS's refusal."""
    found = locate(state, find, target)
    said = words(header)
    if found is not None and RESUME in found[0].datasets[found[1]] and not resuming:
        raise DatasetBusy(
            f'{said}: destination {target} contains partially-complete state from "zfs receive -s".'
        )
    if header.from_guid is None:
        return _check_full(state, find, target, header, options, found, resuming)
    if found is None:
        raise DatasetNotFound(f"{said}: destination '{target}' does not exist")
    _check_incremental(found, target, header, options)
    return found


def _check_full(
    state: State,
    find: Find,
    target: str,
    header: SectionHeader,
    options: Options,
    found: Place | None,
    resuming: bool,
) -> Place | None:
    """A full stream makes a new dataset, or overwrites one that has no snapshots (-F)."""
    if found is None:
        _check_new(state, find, target, header)
        return None
    tree, rel = found
    if not (resuming and tree.datasets[rel].get(RESUME, {}).get("new")):
        _check_overwrite(found, target, header, options)
    # else: the dataset an interrupted full receive made, which the rest of it goes on into
    return found


def _check_new(state: State, find: Find, target: str, header: SectionHeader) -> None:
    """A new dataset needs an existing file system as its parent."""
    said = words(header)
    parent = target.rpartition("/")[0]
    if not parent:
        raise DatasetNotFound(f"{said}: destination '{target}' does not exist")
    place = locate(state, find, parent)
    if place is None:
        last = f"{said}: unable to restore to destination"
        opened = f"cannot open '{parent}': dataset does not exist"
        raise DatasetNotFound(last, stderr=f"{opened}\n{last}\n")
    if place[0].kind(place[1]) != props.FILESYSTEM:
        raise ZfsError(f"{said}: parent '{parent}' is not a filesystem")


def _check_overwrite(found: Place, target: str, header: SectionHeader, options: Options) -> None:
    """-F, no snapshots, and a zvol only where a zvol may be."""
    tree, rel = found
    said = words(header)
    if not options.force:
        _refuse(DatasetExists, f"{said}: destination '{target}' exists",
                "must specify -F to overwrite it")  # fmt: skip
    names = snapshot_names(tree, rel)
    if names:
        _refuse(DatasetExists, f"{said}: destination has snapshots (eg. {target}@{names[0]})",
                "must destroy them to overwrite it")  # fmt: skip
    if header.kind != props.VOLUME:
        return
    if not rel:
        _refuse(ZfsError, f"{said}: destination {target} is the root dataset",
                "cannot overwrite with a ZVOL")  # fmt: skip
    children = tree.descendants(rel)
    if children:
        _refuse(ZfsError, f"{said}: destination has children (eg. {tree.full_name(children[0])})",
                "cannot overwrite with a ZVOL")  # fmt: skip


def _check_incremental(found: Place, target: str, header: SectionHeader, options: Options) -> None:
    """The target has the stream's base and, unless forced, nothing after it."""
    tree, rel = found
    said = words(header)
    names = snapshot_names(tree, rel)
    newer = _after_base(tree, rel, header)
    if newer is None:
        _refuse(
            ZfsError,
            f"{said}: most recent snapshot of {target} does not",
            "match incremental source",
        )
    base = names[len(names) - len(newer) - 1]
    if not options.force and (newer or written(tree, rel, base) > 0):
        _refuse(
            ZfsError,
            f"{said}: destination {target} has been modified",
            "since most recent snapshot",
        )
    if header.snapshot in names and header.snapshot not in newer:
        raise DatasetExists(f"{said}: destination '{target}@{header.snapshot}' exists")


def _after_base(tree: PoolTree, rel: str, header: SectionHeader) -> list[str] | None:
    """The target's snapshots after the one the stream starts from (None: it lacks that one)."""
    names = snapshot_names(tree, rel)
    guids = [guid_of(tree, rel, name) for name in names]
    if header.from_guid not in guids:
        return None
    return names[guids.index(str(header.from_guid)) + 1 :]


def _refuse(kind: type[ZfsError], first: str, second: str) -> NoReturn:
    """OpenZFS's two-line refusals: the message is the whole of both lines."""
    text = f"{first}\n{second}"
    raise kind(text, stderr=text + "\n")


# -- changes -----------------------------------------------------------------------------
def land(
    state: State,
    find: Find,
    target: str,
    arrived: tuple[SectionHeader, Path, int],
    options: Options,
    now: float,
) -> None:
    """Check again, then make the staged copy the target's newest snapshot and its live data."""
    header, staged, referenced = arrived
    found = check(state, find, target, header, options, resuming=True)
    if found is None:
        tree, rel = create(state, find, target, header, options, now)
    elif header.from_guid is None:
        tree, rel = found
        _become(tree, rel, header)
    else:
        tree, rel = found
        _roll_back(tree, rel, header, _after_base(tree, rel, header) or [])
    copy = copy_path(tree, rel, header.snapshot)
    copy.parent.mkdir(parents=True, exist_ok=True)
    staged.rename(copy)
    tree.datasets[rel].setdefault("snapshots", {})[header.snapshot] = {
        "created": header.created,
        "seq": next_seq(tree),
        "guid": header.guid,
        "props": {},
        "holds": [],
        "clones": [],
        "referenced": referenced,
    }
    _make_live(tree, rel, copy, header)
    _set_properties(tree, rel, options)
    drop_partial(tree, rel)


def create(
    state: State, find: Find, target: str, header: SectionHeader, options: Options, now: float
) -> Place:
    """The new, empty dataset or zvol a full stream fills (its parent was checked)."""
    tree, _ = find(state, target.rpartition("/")[0])
    rel = split_name(target)[1]
    tree.datasets[rel] = {"type": header.kind, "props": {}, "created": now, "usage": {}}
    if header.crypt is not None:  # a raw stream: stored encrypted, no key here to open it
        tree.datasets[rel]["crypt"] = crypt.received(header.crypt)
    _become(tree, rel, header)
    _set_properties(tree, rel, options)
    return tree, rel


def _become(tree: PoolTree, rel: str, header: SectionHeader) -> None:
    """Make the dataset of the stream's kind (-F may turn a file system into a zvol)."""
    record = tree.datasets[rel]
    if record["type"] != header.kind:
        remove_tree(tree.data_path(rel))
        record["type"] = header.kind
        record["props"] = {
            k: v for k, v in record["props"].items() if props.applies(k, header.kind)
        }
    live = tree.data_path(rel)
    if header.kind == props.VOLUME:
        record["props"]["volsize"] = str(header.volsize)
        record["props"].setdefault("volblocksize", str(header.volblocksize))
        live.parent.mkdir(parents=True, exist_ok=True)
        live.touch()
    else:
        live.mkdir(parents=True, exist_ok=True)


def _roll_back(tree: PoolTree, rel: str, header: SectionHeader, newer: list[str]) -> None:
    """-F: destroy the target's snapshots after the base, all or none (holds, clones refuse)."""
    snaps = tree.datasets[rel]["snapshots"]
    for name in newer:
        if snaps[name]["holds"]:
            raise DatasetBusy(f"{words(header)}: pool or dataset is busy")
        if snaps[name]["clones"]:
            raise HasClones(f"{words(header)}: destination has dependent clones")
    for name in newer:
        del snaps[name]
        remove_tree(copy_path(tree, rel, name))


def _make_live(tree: PoolTree, rel: str, copy: Path, header: SectionHeader) -> None:
    """The live data becomes the newest received snapshot's."""
    _become(tree, rel, header)
    restore_tree(copy, tree.data_path(rel))


def _set_properties(tree: PoolTree, rel: str, options: Options) -> None:
    """-o name=value: set on the received dataset (readonly=on keeps a copy unwritten)."""
    kind = tree.kind(rel)
    local = tree.datasets[rel]["props"]
    for name, value in options.properties:
        local[name] = props.normalize(name, value, kind)


# -- interrupted receives ----------------------------------------------------------------
def save_partial(
    state: State,
    find: Find,
    target: str,
    cut: tuple[SectionHeader, Path, int],
    options: Options,
    now: float,
) -> ResumeToken:
    """Keep the section's bytes that arrived beside the target, and say where to resume."""
    header, spool, offset = cut
    found = check(state, find, target, header, options, resuming=True)
    new = found is None
    tree, rel = found if found is not None else create(state, find, target, header, options, now)
    record = tree.datasets[rel]
    new = new or bool(record.get(RESUME, {}).get("new"))
    token = ResumeToken(header.full_name, header.guid, header.from_guid, offset)
    record[RESUME] = {"token": asdict(token), "new": new}
    spool.rename(partial_path(tree, rel))
    return token


def abort(state: State, find: Find, target: str) -> None:
    """`zfs receive -A`: drop the partial state, and the dataset if only that made it."""
    tree, rel = find(state, target)
    record = tree.datasets[rel]
    if RESUME not in record:
        raise ZfsError(f"'{target}' does not have any resumable receive state to abort")
    if record[RESUME]["new"] and not snapshot_names(tree, rel):
        del tree.datasets[rel]
        remove_tree(paths.node_dir(tree.dir, rel))
        return
    drop_partial(tree, rel)

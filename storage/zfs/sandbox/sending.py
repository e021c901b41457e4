"""`zfs send` of the sandbox (a mixin of SandboxZfsEngine): full, -i, -I, -t and their sizes.

The snapshots a send carries are linked into a staging folder under the state's shared lock
(a hard link per file: copies never change in place), then written out without the lock: a
receiver on the same sandbox must be able to take it while the sender waits on the pipe, and
a snapshot destroyed meanwhile does not pull the data from under the stream.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from storage.zfs.errors import DatasetNotFound, SnapshotNotFound, ZfsError
from storage.zfs.sandbox import crypt, props, staging
from storage.zfs.sandbox.snapshots import copy_path, snapshot_names
from storage.zfs.sandbox.stamps import guid_of
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.streams import (
    MAGIC,
    SectionHeader,
    Writer,
    resume_line,
    section_pieces,
    section_size,
    trailer,
)
from storage.zfs.sandbox.tokens import CorruptToken, ResumeToken
from storage.zfs.sandbox.tree import PoolTree


@dataclass(frozen=True)
class Carried:
    """One snapshot a stream carries, and where its copy is read from."""

    header: SectionHeader
    copy: Path


class SendOps:
    """Streams out of the sandbox: whole, incremental, resumed; or only their sizes."""

    root: Path
    _state: StateStore

    def _find(self, state: State, name: str) -> tuple[PoolTree, str]:
        raise NotImplementedError  # provided by DatasetOps

    def _snap(self, state: State, snapshot: str) -> tuple[PoolTree, str, str]:
        raise NotImplementedError  # provided by SnapshotOps

    def send(
        self,
        snapshot: str,
        out: BinaryIO,
        *,
        base: str | None = None,
        intermediates: bool = False,
        raw: bool = False,
    ) -> None:
        """Write the stream of `snapshot` (from `base` with -i; every snapshot between with -I;
        `raw`, -w: an encrypted dataset as it is stored, its key not needed nor carried)."""
        with staging.area(self.root, "send") as area:
            with self._state.reading() as state:
                found = self._carried(state, snapshot, base, intermediates, raw)
                carried = _linked(found, area)
            writer = Writer(out)
            writer.write(MAGIC)
            for item in carried:
                writer.section(section_pieces(item.header, item.copy))
            writer.write(trailer(len(carried)))

    def send_sizes(
        self,
        snapshot: str,
        *,
        base: str | None = None,
        intermediates: bool = False,
        raw: bool = False,
    ) -> tuple[list[tuple[SectionHeader, int]], int]:
        """Each section's bytes and the whole stream's, as send() would write them."""
        with self._state.reading() as state:
            carried = self._carried(state, snapshot, base, intermediates, raw)
            sizes = [(c.header, section_size(section_pieces(c.header, c.copy))) for c in carried]
        total = len(MAGIC) + sum(size for _, size in sizes) + len(trailer(len(sizes)))
        return sizes, total

    def resume_send(self, token: str, out: BinaryIO) -> None:
        """Write what an interrupted receive lacks: the rest of the section its token names."""
        with staging.area(self.root, "send") as area:
            with self._state.reading() as state:
                resumed, offset = self._resumed(state, token)
                (item,) = _linked([resumed], area)
            out.write(MAGIC + resume_line(item.header.guid, offset))
            Writer(out, skip=offset).section(section_pieces(item.header, item.copy))
            out.write(trailer(1))

    def resume_size(self, token: str) -> tuple[SectionHeader, int]:
        """The section a token resumes and the bytes resume_send() would write."""
        with self._state.reading() as state:
            item, offset = self._resumed(state, token)
            size = section_size(section_pieces(item.header, item.copy))
        head = len(MAGIC + resume_line(item.header.guid, offset))
        return item.header, head + max(0, size - offset) + len(trailer(1))

    # -- what a stream carries -----------------------------------------------------------
    def _carried(
        self, state: State, snapshot: str, base: str | None, intermediates: bool, raw: bool
    ) -> list[Carried]:
        tree, rel, short = self._snap(state, snapshot)
        sealed = crypt.raw_record(tree, rel) if raw else None
        if base is None:
            return [_carry(tree, rel, short, None, sealed)]
        order = snapshot_names(tree, rel)
        start = _base_name(tree, rel, snapshot, base)
        if start not in order:
            raise SnapshotNotFound(
                f"warning: cannot send '{snapshot}': incremental source"
                f" ({tree.full_name(rel)}@{start}) does not exist"
            )
        first, last = order.index(start), order.index(short)
        if first >= last:
            raise ZfsError(
                f"warning: cannot send '{snapshot}': not an earlier snapshot from the same fs"
            )
        picks = order[first + 1 : last + 1] if intermediates else [short]
        froms = [start, *picks[:-1]]
        pairs = zip(picks, froms, strict=True)
        return [_carry(tree, rel, name, prev, sealed) for name, prev in pairs]

    def _resumed(self, state: State, text: str) -> tuple[Carried, int]:
        """The section a token names, from the snapshots it names by guid, and its offset."""
        try:
            token = ResumeToken.decode(text)
        except CorruptToken:
            raise ZfsError("cannot resume send: resume token is corrupt") from None
        dataset, short = token.toname.split("@", 1)
        gone = f"cannot resume send: '{token.toname}' used in the initial send no longer exists"
        try:
            tree, rel = self._find(state, dataset)
        except DatasetNotFound:
            raise SnapshotNotFound(gone) from None
        names = {guid_of(tree, rel, name): name for name in snapshot_names(tree, rel)}
        if token.toguid not in names:
            if short in names.values():
                raise ZfsError(
                    f"cannot resume send: '{token.toname}' is no longer the same snapshot"
                    " used in the initial send"
                )
            raise SnapshotNotFound(gone)
        prev = None
        if token.fromguid is not None:
            if token.fromguid not in names:
                raise SnapshotNotFound(
                    f"cannot resume send: incremental source {int(token.fromguid):#x}"
                    " no longer exists"
                )
            prev = names[token.fromguid]
        return _carry(tree, rel, names[token.toguid], prev), token.offset


def _base_name(tree: PoolTree, rel: str, snapshot: str, base: str) -> str:
    """The short name of -i/-I's base: `@name`, or `pool/ds@name` of the same dataset."""
    dataset, at, short = base.partition("@")
    if not at or (dataset and dataset != tree.full_name(rel)):
        raise ZfsError(
            f"warning: cannot send '{snapshot}': not an earlier snapshot from the same fs"
        )
    return short


def _carry(
    tree: PoolTree, rel: str, short: str, prev: str | None, sealed: dict[str, str] | None = None
) -> Carried:
    """A snapshot's section header (the stream's wording of it) and its copy."""
    record = tree.datasets[rel]["snapshots"][short]
    copy = copy_path(tree, rel, short)
    volume = tree.kind(rel) == props.VOLUME
    header = SectionHeader(
        dataset=tree.full_name(rel),
        snapshot=short,
        guid=guid_of(tree, rel, short),
        from_guid=guid_of(tree, rel, prev) if prev else None,
        from_name=prev,
        kind=tree.kind(rel),
        created=int(record["created"]),
        volsize=copy.stat().st_size if volume else None,
        volblocksize=tree.int_value(rel, "volblocksize") if volume else None,
        crypt=sealed,
    )
    return Carried(header, copy)


def _linked(carried: list[Carried], area: Path) -> list[Carried]:
    """The same snapshots read from hard links in `area`, which outlive a destroy."""
    linked = []
    for index, item in enumerate(carried):
        target = area / str(index)
        if item.copy.is_dir():
            argv = ["cp", "-a", "-l", "--", str(item.copy), str(target)]
            done = subprocess.run(argv, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise ZfsError(f"cannot send {item.header.full_name}: {done.stderr.strip()}")
        else:
            os.link(item.copy, target)
        linked.append(Carried(item.header, target))
    return linked

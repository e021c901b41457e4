"""Snapshot commands of the `cli` engine (a mixin of CliZfsEngine)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage.zfs.argv import property_args
from storage.zfs.errors import InvalidProperty, NewerSnapshots
from storage.zfs.names import check_dataset_name
from storage.zfs.parse.snapshots import (
    SNAPSHOT_COLUMNS,
    parse_snapshot_list,
    parse_zfs_diff,
)
from storage.zfs.runner import CommandResult
from storage.zfs.snapshots import DiffEntry, Snapshot, check_snapshot_name

HOLDS_BATCH = 500  # snapshots per `zfs holds` command


class SnapshotCommands:
    """list/create/destroy/rollback/clone/diff/hold of snapshots through `zfs`."""

    def run(
        self, argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None
    ) -> CommandResult:
        raise NotImplementedError  # provided by the engine

    def _out(self, *argv: str, timeout: float | None = None) -> str:
        raise NotImplementedError  # provided by the engine

    def list_snapshots(self, name: str, *, recursive: bool = False) -> list[Snapshot]:
        """Snapshots of `name` (and of its descendants when recursive), oldest first."""
        check_dataset_name(name)
        depth = ["-r"] if recursive else ["-d", "1"]
        columns = ",".join(SNAPSHOT_COLUMNS)
        text = self._out(
            "zfs", "list", "-H", "-p", "-t", "snapshot", "-o", columns, "-s", "createtxg",
            *depth, name,
        )  # fmt: skip
        return parse_snapshot_list(text)

    def create_snapshot(
        self,
        name: str,
        *,
        recursive: bool = False,
        properties: Mapping[str, str] | None = None,
    ) -> None:
        """`zfs snapshot [-r] [-o k=v] DATASET@NAME`: one atomic snapshot (of a tree if -r)."""
        check_snapshot_name(name)
        flags = ["-r"] if recursive else []
        self.run(["zfs", "snapshot", *flags, *property_args("-o", properties or {}), name])

    def destroy_snapshots(
        self, dataset: str, names: Sequence[str], *, recursive: bool = False
    ) -> None:
        """`zfs destroy [-r] DATASET@a,b,c`: all listed in one command (no clones, no holds)."""
        if not names:
            return
        for short in names:
            check_snapshot_name(f"{dataset}@{short}")
        flags = ["-r"] if recursive else []
        self.run(["zfs", "destroy", *flags, f"{dataset}@{','.join(names)}"])

    def rollback(self, snapshot: str, *, destroy_newer: bool = False) -> None:
        """`zfs rollback [-r] DATASET@SNAP`; never -R (that would destroy clones)."""
        check_snapshot_name(snapshot)
        try:
            self.run(["zfs", "rollback", *(["-r"] if destroy_newer else []), snapshot])
        except NewerSnapshots as refused:
            dataset = snapshot.split("@", 1)[0]
            refused.creation_order = [s.name for s in self.list_snapshots(dataset)]
            raise

    def clone(
        self, snapshot: str, target: str, *, properties: Mapping[str, str] | None = None
    ) -> None:
        """`zfs clone [-o k=v] DATASET@SNAP TARGET`: a writable dataset or zvol."""
        check_snapshot_name(snapshot)
        check_dataset_name(target)
        if target.split("/", 1)[0] != snapshot.split("/", 1)[0]:
            raise InvalidProperty("a clone must be in the same pool as its snapshot")
        self.run(["zfs", "clone", *property_args("-o", properties or {}), snapshot, target])

    def diff(self, snapshot: str, other: str = "") -> list[DiffEntry]:
        """`zfs diff -H -F SNAP [OTHER]`: what changed since the snapshot (file systems)."""
        check_snapshot_name(snapshot)
        if other:
            check_dataset_name(other.split("@", 1)[0])
        text = self._out("zfs", "diff", "-H", "-F", snapshot, *([other] if other else []))
        return parse_zfs_diff(text)

    def hold(self, snapshot: str, tag: str) -> None:
        """`zfs hold TAG SNAP`: the snapshot cannot be destroyed until released."""
        check_snapshot_name(snapshot)
        self.run(["zfs", "hold", "--", tag, snapshot])

    def release(self, snapshot: str, tag: str) -> None:
        """`zfs release TAG SNAP`."""
        check_snapshot_name(snapshot)
        self.run(["zfs", "release", "--", tag, snapshot])

    def hold_tags(self, snapshots: Sequence[str]) -> dict[str, list[str]]:
        """`zfs holds -H SNAP...` (in batches: a command line has a limit)."""
        found: dict[str, list[str]] = {}
        for start in range(0, len(snapshots), HOLDS_BATCH):
            batch = list(snapshots[start : start + HOLDS_BATCH])
            for name in batch:
                check_snapshot_name(name)
            for line in self._out("zfs", "holds", "-H", "--", *batch).splitlines():
                name, tag, _when = line.split("\t", 2)
                found.setdefault(name, []).append(tag)
        return found

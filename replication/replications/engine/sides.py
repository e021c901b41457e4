"""One side of a replication: OpenZFS here, or on another box over ssh, through its CLI.

A side runs `zfs` argument lists: here as they are, over ssh quoted for the other side's shell
(connections/engine/ssh.py). What it reads is parseable (`-H -p`); what it cannot do comes back
as a SideError with OpenZFS's own words.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from replication.connections.engine import ssh
from replication.replications.engine.chain import SnapStamp

MISSING = "dataset does not exist"
COMMAND_TIMEOUT = 120
# What `zfs release` says when there is nothing to release.
GONE = ("no such tag", "could not find", "does not exist")


class SideError(Exception):
    """A zfs command failed on one side; the message is OpenZFS's (or ssh's) last line."""


@dataclass(frozen=True)
class TargetState:
    """What a run needs to know of its target dataset before planning."""

    snapshots: tuple[SnapStamp, ...] | None  # None: the dataset does not exist
    written: bool  # data not in its newest snapshot (any data at all without snapshots)
    resume_token: str  # an interrupted receive's token, "" if none


class Side:
    """`zfs` on one box: `prefix` is [] here, or the ssh argv that reaches the other box.

    `zfs` is the program that stands for `zfs` in every command: OpenZFS's, or the sandbox's
    (storage/zfs/sandbox/zfs_cli.py) when the fast lane proves the flows without OpenZFS.
    """

    def __init__(
        self,
        prefix: Sequence[str] = (),
        remote: ssh.Remote | None = None,
        zfs: Sequence[str] = ("zfs",),
    ) -> None:
        self.prefix = list(prefix)
        self.remote = remote
        self.where = remote.where if remote else "this box"
        self.zfs = list(zfs)

    @property
    def here(self) -> bool:
        """This box, not the other one over ssh."""
        return not self.prefix

    def argv(self, command: Sequence[str]) -> list[str]:
        """The argument list that runs `command` on this side."""
        if command and command[0] == "zfs":
            command = [*self.zfs, *command[1:]]
        if not self.prefix:
            return list(command)
        return [*self.prefix, shlex.join(command)]

    def run(self, command: Sequence[str], timeout: float = COMMAND_TIMEOUT) -> str:
        """Run a short command; its stdout, or SideError with the last line it printed."""
        try:
            done = subprocess.run(
                self.argv(command), capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired as error:
            took = f"{shlex.join(command)} on {self.where} took over {timeout:.0f} s"
            raise SideError(took) from error
        if done.returncode == 255 and self.remote:  # ssh's own failure, not the command's
            raise SideError(str(ssh.classify(self.remote, done.stderr)))
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
            raise SideError(lines[-1])
        return done.stdout

    # -- reads ---------------------------------------------------------------------------
    def snapshots(self, dataset: str) -> tuple[SnapStamp, ...] | None:
        """The dataset's own snapshots (name, guid, createtxg), oldest first; None if absent."""
        try:
            out = self.run(["zfs", "list", "-H", "-p", "-t", "snapshot", "-d", "1", "-s",
                            "createtxg", "-o", "name,guid,createtxg", dataset])  # fmt: skip
        except SideError as error:
            if MISSING in str(error):
                return None
            raise
        stamps = []
        for line in out.splitlines():
            name, guid, txg = line.split("\t")
            stamps.append(SnapStamp(name.split("@", 1)[1], guid, int(txg)))
        return tuple(stamps)

    def target_state(self, dataset: str) -> TargetState:
        """Snapshots, unsaved writes and any resume token of a would-be target dataset."""
        snapshots = self.snapshots(dataset)
        if snapshots is None:
            return TargetState(None, False, "")
        values = self.properties(dataset, ("written", "receive_resume_token"))
        # Without snapshots nothing shows the data came from the source: count it as data.
        written = not snapshots or (values["written"].isdigit() and int(values["written"]) > 0)
        return TargetState(snapshots, written, _token(values["receive_resume_token"]))

    def properties(self, dataset: str, names: Sequence[str]) -> dict[str, str]:
        """Raw (-p) values of the named properties."""
        out = self.run(["zfs", "get", "-H", "-p", "-o", "property,value", ",".join(names), dataset])
        return dict(line.split("\t", 1) for line in out.splitlines())

    def resume_token(self, dataset: str) -> str:
        """The token of an interrupted receive into `dataset`, "" if none (or no dataset)."""
        try:
            values = self.properties(dataset, ("receive_resume_token",))
        except SideError as error:
            if MISSING in str(error):
                return ""
            raise
        return _token(values["receive_resume_token"])

    # -- writes --------------------------------------------------------------------------
    def hold(self, snapshot: str, tag: str) -> None:
        """Keep `snapshot` from being destroyed (a second hold with the same tag is fine)."""
        try:
            self.run(["zfs", "hold", tag, snapshot])
        except SideError as error:
            if "tag already exists" not in str(error):
                raise

    def release(self, snapshot: str, tag: str) -> None:
        """Drop this task's hold (nothing if it is gone, or the snapshot is)."""
        try:
            self.run(["zfs", "release", tag, snapshot])
        except SideError as error:
            if not any(words in str(error) for words in GONE):
                raise

    def destroy_snapshots(self, dataset: str, names: Sequence[str]) -> None:
        """Destroy the dataset's snapshots by short name, in one command."""
        if names:
            self.run(["zfs", "destroy", f"{dataset}@{','.join(names)}"])

    def abort_resume(self, dataset: str) -> None:
        """Discard an interrupted receive's saved state (`zfs recv -A`)."""
        self.run(["zfs", "receive", "-A", dataset])

    def descendants(self, dataset: str) -> list[str]:
        """The dataset and every file system and zvol below it, parents first."""
        out = self.run(
            ["zfs", "list", "-H", "-o", "name", "-r", "-t", "filesystem,volume", dataset]
        )
        return sorted(out.split(), key=lambda name: (name.count("/"), name))


@contextmanager
def over_ssh(remote: ssh.Remote, *, compression: bool = False) -> Iterator[Side]:
    """The other box's side, its key and pinned host keys in place while it is used."""
    with ssh.session(remote, compression=compression) as prefix:
        yield Side(prefix, remote)


def _token(value: str) -> str:
    """A resume token property's value, "" for OpenZFS's "-" (none)."""
    return "" if value == "-" else value

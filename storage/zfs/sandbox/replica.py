"""What replication reads of a sandbox dataset (a mixin of SandboxZfsEngine).

`zfs list -t snapshot -o name,guid,createtxg` and `zfs get written,receive_resume_token`:
the snapshots as the chain matches them, whether the live data moved on since the newest
one, and the token of an interrupted receive.
"""

from __future__ import annotations

from collections.abc import Sequence

from storage.zfs.errors import InvalidProperty
from storage.zfs.sandbox import crypt
from storage.zfs.sandbox.copies import written_bytes
from storage.zfs.sandbox.snapshots import copy_path, snapshot_names
from storage.zfs.sandbox.stamps import Stamp, stamp
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.tokens import token_of
from storage.zfs.sandbox.tree import PoolTree

REPLICATION_PROPERTIES = ("written", "receive_resume_token", "encryption")


class ReplicaReads:
    """Snapshots with guid and createtxg; `written` and `receive_resume_token`."""

    _state: StateStore

    def _find(self, state: State, name: str) -> tuple[PoolTree, str]:
        raise NotImplementedError  # provided by DatasetOps

    def snapshot_stamps(self, name: str, *, recursive: bool = False) -> list[Stamp]:
        """The snapshots of `name` (and its descendants'), oldest first per dataset."""
        tree, rel = self._find(self._state.read(), name)
        targets = [rel, *tree.descendants(rel)] if recursive else [rel]
        return [stamp(tree, t, short) for t in targets for short in snapshot_names(tree, t)]

    def replication_properties(self, name: str, props: Sequence[str]) -> dict[str, str]:
        """Raw values (as `zfs get -p`) of `written`, `receive_resume_token` and `encryption`."""
        for prop in props:
            if prop not in REPLICATION_PROPERTIES:
                raise InvalidProperty(f"bad property list: invalid property '{prop}'")
        tree, rel = self._find(self._state.read(), name)
        values = {}
        for prop in props:
            if prop == "written":
                values[prop] = str(written(tree, rel))
            elif prop == "encryption":
                root = crypt.root_of(tree, rel)
                values[prop] = tree.datasets[rel]["crypt"]["cipher"] if root is not None else "off"
            else:
                token = token_of(tree.datasets[rel])
                values[prop] = token.encode() if token else "-"
        return values


def written(tree: PoolTree, rel: str, since: str | None = None) -> int:
    """Bytes of live data not as in snapshot `since` (default: the newest; none: all of it)."""
    names = snapshot_names(tree, rel)
    base = since or (names[-1] if names else None)
    copy = copy_path(tree, rel, base) if base else None
    return written_bytes(tree.data_path(rel), copy)

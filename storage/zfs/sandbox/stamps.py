"""What identifies a sandbox snapshot across pools: OpenZFS's guid and createtxg.

Replication matches snapshots by guid (`zfs send | zfs receive` keeps it) and orders one
side's snapshots by createtxg. A snapshot's guid is drawn at random when it is made and
stored in its record; records written before guids existed get one derived from what
identifies them (pool guid, dataset, name, seq), so it is stable from one read to the next.
createtxg is the pool-wide `seq` the sandbox already keeps per snapshot.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from storage.zfs.sandbox.tree import PoolTree


@dataclass(frozen=True)
class Stamp:
    """A snapshot as `zfs list -p -o name,guid,createtxg,creation,userrefs` shows it."""

    name: str  # pool/dataset@snap
    guid: str  # 64-bit unsigned, decimal
    createtxg: int
    creation: int
    userrefs: int


def new_guid() -> str:
    """A random 64-bit guid (never 0: OpenZFS reserves it for "none")."""
    return str(secrets.randbits(64) or 1)


def guid_of(tree: PoolTree, rel: str, short: str) -> str:
    """The snapshot's guid: the stored one, else one derived from its identity."""
    record: dict[str, Any] = tree.datasets[rel]["snapshots"][short]
    stored = record.get("guid")
    if stored:
        return str(stored)
    identity = f"{tree.guid}/{rel}@{short}#{record['seq']}".encode()
    value = int.from_bytes(hashlib.blake2b(identity, digest_size=8).digest(), "big")
    return str(value or 1)


def next_seq(tree: PoolTree) -> int:
    """Take the pool's next createtxg: the state file sorts keys, so order needs a counter."""
    seq = int(tree.record.get("snapshot_seq", 0)) + 1
    tree.record["snapshot_seq"] = seq
    return seq


def stamp(tree: PoolTree, rel: str, short: str) -> Stamp:
    """The listing of one snapshot."""
    record = tree.datasets[rel]["snapshots"][short]
    return Stamp(
        name=f"{tree.full_name(rel)}@{short}",
        guid=guid_of(tree, rel, short),
        createtxg=int(record["seq"]),
        creation=int(record["created"]),
        userrefs=len(record["holds"]),
    )

"""`receive_resume_token`: what an interrupted receive kept, and what it needs sent again.

Opaque to everyone but the sandbox, like OpenZFS's: a version prefix, then base64 of JSON
naming the sending snapshot (name and guid), the snapshot the section was sent from (guid,
None for a full stream) and how many bytes of the section the receiver kept.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from storage.zfs.sandbox import paths
from storage.zfs.sandbox.tree import PoolTree

PREFIX = "1-"


class CorruptToken(ValueError):
    """Not a token this sandbox wrote."""


@dataclass(frozen=True)
class ResumeToken:
    """Where an interrupted receive stopped: `offset` bytes into the section of `toname`."""

    toname: str  # pool/dataset@snap on the sending side
    toguid: str
    fromguid: str | None
    offset: int

    def encode(self) -> str:
        """The token as `zfs get receive_resume_token` prints it."""
        data = json.dumps(asdict(self), sort_keys=True, separators=(",", ":")).encode()
        return PREFIX + base64.urlsafe_b64encode(data).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> ResumeToken:
        """A token back from its text; CorruptToken if it is not one."""
        if not text.startswith(PREFIX):
            raise CorruptToken(text)
        body = text[len(PREFIX) :]
        try:
            fields = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
            token = cls(**fields)
        except (binascii.Error, ValueError, TypeError):
            raise CorruptToken(text) from None
        if not _well_formed(token):
            raise CorruptToken(text)
        return token


def _well_formed(token: ResumeToken) -> bool:
    """Fields of the types a token holds: a snapshot name, decimal guids, a byte count."""
    guids = [token.toguid] if token.fromguid is None else [token.toguid, token.fromguid]
    return (
        isinstance(token.toname, str)
        and "@" in token.toname
        and all(isinstance(g, str) and g.isdigit() for g in guids)
        and isinstance(token.offset, int)
        and token.offset >= 0
    )


# Where a dataset keeps an interrupted receive: its record's RESUME entry ({"token": fields,
# "new": whether the receive created the dataset}) and the section's bytes beside its data.
RESUME = "receive_resume"
PARTIAL = "receive.partial"


def token_of(record: dict[str, Any]) -> ResumeToken | None:
    """The resume token of a dataset record, None if no receive was interrupted."""
    saved = record.get(RESUME)
    return ResumeToken(**saved["token"]) if saved else None


def partial_path(tree: PoolTree, rel: str) -> Path:
    """Where a dataset keeps the bytes of an interrupted receive's section."""
    return paths.node_dir(tree.dir, rel) / PARTIAL


def drop_partial(tree: PoolTree, rel: str) -> None:
    """Forget an interrupted receive's state (it completed, or -A discards it)."""
    tree.datasets[rel].pop(RESUME, None)
    partial_path(tree, rel).unlink(missing_ok=True)

"""ZFS engines: plain Python, no Django. `get_engine()` picks the implementation."""

from __future__ import annotations

from storage.zfs.base import ZfsEngine
from storage.zfs.cli import CliZfsEngine


def get_engine() -> ZfsEngine:
    """The cli engine (OpenZFS through zpool/zfs/zdb)."""
    return CliZfsEngine()


__all__ = ["CliZfsEngine", "ZfsEngine", "get_engine"]

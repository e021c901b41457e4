"""What a LUN's backing store is on this host: which storage-object kind it needs, its size."""

from __future__ import annotations

import os
import stat

from sharing.iscsi.errors import BackingStoreMissing
from sharing.iscsi.lio.rules import plugin_for
from sharing.iscsi.lio.state import Plugin


def backing_facts(path: str) -> tuple[Plugin, int | None]:
    """The storage-object kind a backing needs and, for a plain file, its size in bytes."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise BackingStoreMissing(f"backing store {path}: {exc.strerror}") from exc
    plugin = plugin_for(path)
    if plugin == "block" and not stat.S_ISBLK(info.st_mode):
        raise BackingStoreMissing(f"backing store {path} is not a block device")
    if plugin == "fileio" and not stat.S_ISREG(info.st_mode):
        raise BackingStoreMissing(f"backing store {path} is not a regular file")
    # a block device's size is live in LIO; a file's is fixed when LIO opens it
    return plugin, (info.st_size if plugin == "fileio" else None)

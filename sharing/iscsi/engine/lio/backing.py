"""What a LUN's backing store is on this host: its storage-object kind, size, and discard."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from sharing.iscsi.engine.errors import BackingStoreMissing
from sharing.iscsi.engine.lio.rules import plugin_for
from sharing.iscsi.engine.lio.state import Plugin


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


def discards(path: str, sysfs: Path = Path("/sys/dev/block")) -> bool:
    """Whether LIO can pass UNMAP to this backing: a block device that discards, or a file.

    LIO refuses emulate_tpu on a block device without discard ("Generic Block Discard not
    supported"); a plain file always takes it (holes are punched). Unknown: no.
    """
    try:
        info = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISBLK(info.st_mode):
        return True
    dev = sysfs / f"{os.major(info.st_rdev)}:{os.minor(info.st_rdev)}"
    # a partition has no queue of its own: its disk's applies
    for queue in (dev / "queue", dev / ".." / "queue"):
        try:
            return int((queue / "discard_max_bytes").read_text()) > 0
        except (OSError, ValueError):
            continue
    return False

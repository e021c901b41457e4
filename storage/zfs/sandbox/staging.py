"""Scratch folders inside the sandbox root for the sends and receives under way.

A send links the snapshots it carries here (so a destroy meanwhile cannot pull them away); a
receive rebuilds each arriving snapshot here and moves it into its pool once it is whole. Both
work without the state lock (they wait on pipes), and staying on the root's file system makes
that final move a rename. A folder is named after its process: one left by a killed process
is swept by the next one that starts.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from storage.zfs.sandbox.copies import remove_tree

TMP = "tmp"


@contextlib.contextmanager
def area(root: Path, kind: str) -> Iterator[Path]:
    """A new empty folder under root/tmp for this process, removed when the block ends."""
    base = root / TMP
    base.mkdir(parents=True, exist_ok=True)
    sweep(base)
    path = Path(tempfile.mkdtemp(prefix=f"{kind}-{os.getpid()}-", dir=base))
    try:
        yield path
    finally:
        remove_tree(path)


def sweep(base: Path) -> None:
    """Remove the folders of processes that are gone."""
    for entry in base.iterdir():
        fields = entry.name.split("-")
        if len(fields) >= 2 and fields[1].isdigit() and not _alive(int(fields[1])):
            remove_tree(entry)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True

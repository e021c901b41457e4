"""Locks across the panel's processes: an flock on a file, the one way the panel takes one.

The web workers, the Celery worker and the boot daemons each build their own engines; these
locks keep their calls on one running server (or one state file) from interleaving.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def file_lock(path: Path, *, shared: bool = False) -> Iterator[None]:
    """Hold an flock on `path` until the block ends: exclusive, or `shared` among readers.

    The lock's directory is made owner-only when it does not exist yet. Do not nest two locks on
    one path: the second opens a new descriptor and waits for the first, even in one process.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)

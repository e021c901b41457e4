"""Read a scratch dataset's files back after dropping them from the caches, and time it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1024 * 1024
Progress = Callable[[int], None]
PRIMARYCACHE = {"primarycache": "metadata"}  # set on a cli scratch dataset before reading


@dataclass(frozen=True)
class ReadResult:
    """How many bytes were read back and how long it took."""

    bytes: int
    seconds: float


def files_under(root: Path) -> Iterator[Path]:
    """Regular files under root in a stable order."""
    for directory, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(directory, name)
            if path.is_file() and not path.is_symlink():
                yield path


def drop_page_cache(root: Path) -> int:
    """posix_fadvise(DONTNEED) every file under root (the Linux page cache); return how many.

    ZFS keeps file data in the ARC, not the page cache: on ZFS this is a no-op, and
    primarycache=metadata (set by the caller) is what sends the reads to the disks.
    """
    count = 0
    for path in files_under(root):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)  # dirty pages are not dropped: write them first
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
        count += 1
    return count


def read_back(root: Path, progress: Progress | None = None, chunk: int = CHUNK) -> ReadResult:
    """Read every file under root to the end, timed."""
    started = time.monotonic()
    done = 0
    for path in files_under(root):
        fd = os.open(path, os.O_RDONLY)
        try:
            while block := os.read(fd, chunk):
                done += len(block)
                if progress:
                    progress(done)
        finally:
            os.close(fd)
    return ReadResult(done, time.monotonic() - started)


def read_method(*, primarycache_metadata: bool, sample_bytes: int, arc_max: int | None) -> str:
    """A short sentence saying where the reads came from."""
    if primarycache_metadata:
        method = "from disk: primarycache=metadata on each scratch dataset (no data in the ARC)"
    else:
        method = "page cache dropped (posix_fadvise DONTNEED); no ARC on this engine"
    if arc_max and sample_bytes > arc_max:
        method += "; the sample is also larger than the ARC"
    return method

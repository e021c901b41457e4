"""The written regions of a sparse file (SEEK_DATA / SEEK_HOLE): what ZFS allocates blocks for."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator


def data_extents(fd: int, size: int) -> Iterator[tuple[int, int]]:
    """(start, end) of the written regions of a file, skipping never-written holes."""
    offset = 0
    while offset < size:
        try:
            start = os.lseek(fd, offset, os.SEEK_DATA)
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # no data after offset: the rest is a hole
                return
            raise
        end = os.lseek(fd, start, os.SEEK_HOLE)
        yield start, min(end, size)
        offset = end

"""Copy a sample of the user's data into a scratch dataset, in large chunks, and time it."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1024 * 1024  # large writes: ZFS then cuts whole records, as a file copy would
SINGLE_NAME = "sample.bin"  # where the first bytes of a zvol or a single file are written
Progress = Callable[[int], None]  # called with the bytes done so far


@dataclass(frozen=True)
class Piece:
    """`length` bytes from the start of `source`, written to `relative` under the target."""

    source: Path
    length: int
    relative: str


@dataclass(frozen=True)
class CopyResult:
    """What one copy wrote and how long it took (fsync included)."""

    bytes: int
    files: int
    seconds: float


def plan_sample(source: Path, sample_bytes: int) -> list[Piece]:
    """The pieces making up at most `sample_bytes` of a tree, a file or a block device."""
    if source.is_dir():
        return _plan_tree(source, sample_bytes)
    return [Piece(source, min(_size(source), sample_bytes), SINGLE_NAME)]


def _size(path: Path) -> int:
    """Size of a regular file or a block device (whose st_size is 0)."""
    with path.open("rb") as handle:
        return handle.seek(0, os.SEEK_END)


def _plan_tree(root: Path, sample_bytes: int) -> list[Piece]:
    """Regular files in a stable (sorted) order until the sample is full; the last is cut."""
    pieces: list[Piece] = []
    left = sample_bytes
    for path, size in _regular_files(root):
        if left <= 0:
            break
        length = min(size, left)
        pieces.append(Piece(path, length, str(path.relative_to(root))))
        left -= length
    return pieces


def _regular_files(root: Path) -> Iterator[tuple[Path, int]]:
    """(path, size) of readable regular files under root, sorted; links are not followed."""
    for directory, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = Path(directory, name)
            try:
                info = path.lstat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and info.st_size and os.access(path, os.R_OK):
                yield path, info.st_size


def sample_size(pieces: Sequence[Piece]) -> int:
    """Total bytes of a planned sample."""
    return sum(piece.length for piece in pieces)


def copy_sample(
    pieces: Sequence[Piece], target: Path, progress: Progress | None = None, chunk: int = CHUNK
) -> CopyResult:
    """Write every piece under `target`, fsync each file, and time the whole copy."""
    started = time.monotonic()
    done = 0
    for piece in pieces:
        destination = target / piece.relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        with piece.source.open("rb") as src, destination.open("wb") as dst:
            for block in _chunks(src.fileno(), piece.length, chunk):
                dst.write(block)
                done += len(block)
                if progress:
                    progress(done)
            dst.flush()
            # Each file on stable storage before the clock stops: the compression, checksums
            # and (for dedup) table updates are then all inside the measured time.
            os.fsync(dst.fileno())
    return CopyResult(done, len(pieces), time.monotonic() - started)


def warm_sample(pieces: Sequence[Piece], progress: Progress | None = None) -> int:
    """Read the sample once so every setting reads its source from the cache alike."""
    done = 0
    for piece in pieces:
        with piece.source.open("rb") as src:
            for block in _chunks(src.fileno(), piece.length, CHUNK):
                done += len(block)
                if progress:
                    progress(done)
    return done


def _chunks(fd: int, length: int, chunk: int) -> Iterator[bytes]:
    """Up to `length` bytes of an open file in blocks of `chunk` (fewer if it is shorter)."""
    left = length
    while left > 0:
        block = os.read(fd, min(chunk, left))
        if not block:
            return  # the file shrank since it was planned
        left -= len(block)
        yield block

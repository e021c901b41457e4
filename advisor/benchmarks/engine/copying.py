"""Draw a sample of the user's data, copy it into a scratch dataset in large chunks, time it.

The sample is drawn across the whole source, not from its start: the files in a seeded random
order, every MiB of the source with the same chance of being picked (a systematic draw, so the
picks are evenly spaced), and a file larger than its share sampled in whole 1 MiB chunks spread
over it. Each kind of file then weighs in the sample what it weighs in the source, and two runs
on the same data copy the same bytes, so their rows compare.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import random
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from nasui.lib.units import format_bytes

MIB = 1024 * 1024
CHUNK = MIB  # large writes: ZFS then cuts whole records, as a file copy would
# A chunk starts at a multiple of CHUNK in its source and, as chunks are written whole and in
# order, at a multiple of CHUNK in its copy: records of up to 1 MiB see the same blocks there.
SEED = 1  # fixed: the same data gives the same sample in every run
SINGLE_NAME = "sample.bin"  # where the sample of a zvol or a single file is written
Progress = Callable[[int], None]  # called with the bytes done so far
File = tuple[Path, int, str]  # (path, size, where its sample goes under the target)
Drawn = tuple[int, list["Piece"]]  # a file's size and the pieces drawn from it


@dataclasses.dataclass(frozen=True)
class Piece:
    """`length` bytes of `source` from `offset`, appended to `relative` under the target.

    The pieces of one source file come one after the other and share its `relative`: they
    are written, in that order, into one file.
    """

    source: Path
    length: int
    relative: str
    offset: int = 0


@dataclasses.dataclass(frozen=True)
class Sample:
    """A planned sample and what it was drawn from, so the result can say what was copied."""

    pieces: tuple[Piece, ...]
    source_files: int  # regular files in the source (1 for a zvol or a single file)
    source_bytes: int
    whole_files: int  # files copied whole; the others are sampled in chunks
    tree: bool  # the source is a folder (else a zvol or a single file)

    @property
    def bytes(self) -> int:
        """Bytes the sample copies."""
        return sample_size(self.pieces)

    @property
    def files(self) -> int:
        """Source files the sample takes bytes from."""
        return len({piece.relative for piece in self.pieces})

    @property
    def share(self) -> float:
        """What fraction of the source the sample is."""
        return self.bytes / self.source_bytes if self.source_bytes else 1.0


@dataclasses.dataclass(frozen=True)
class CopyResult:
    """What one copy wrote and how long it took (fsync included)."""

    bytes: int
    files: int
    seconds: float


def plan_sample(source: Path, sample_bytes: int, seed: int = SEED) -> list[Piece]:
    """The pieces making up at most `sample_bytes` of a tree, a file or a block device."""
    return list(draw_sample(source, sample_bytes, seed).pieces)


def draw_sample(source: Path, sample_bytes: int, seed: int = SEED) -> Sample:
    """At most `sample_bytes` drawn across a tree, a file or a block device."""
    if source.is_dir():
        files = [
            (path, size, str(path.relative_to(source))) for path, size in _regular_files(source)
        ]
    else:
        files = [(source, _size(source), SINGLE_NAME)]
    files = [found for found in files if found[1] > 0]
    total = sum(size for _, size, _ in files)
    if total <= sample_bytes:
        everything = tuple(Piece(path, size, relative) for path, size, relative in files)
        return Sample(everything, len(files), total, len(files), source.is_dir())
    rng = random.Random(seed)  # noqa: S311  (a sample, not a secret)
    rng.shuffle(files)
    # The share a whole number of chunks asks for: the draw then reaches the budget (its
    # last chunk cut) instead of falling short by the fraction of a chunk it cannot pick.
    share = min(1.0, -(-sample_bytes // CHUNK) * CHUNK / total)
    drawn = _systematic(files, share, rng.random())
    _trim(drawn, sample_bytes, share)
    pieces = tuple(piece for _, found in drawn for piece in found)
    whole = sum(sample_size(found) == size for size, found in drawn)
    return Sample(pieces, len(files), total, whole, source.is_dir())


def _size(path: Path) -> int:
    """Size of a regular file or a block device (whose st_size is 0)."""
    with path.open("rb") as handle:
        return handle.seek(0, os.SEEK_END)


def _systematic(files: Sequence[File], share: float, phase: float) -> list[Drawn]:
    """Chunks picked with probability `share` each, evenly spaced along the files in order.

    The files are cut into CHUNK-sized units (a small file is one unit); walking them, a
    counter grows by `share` per unit and the unit where it passes a whole number is picked.
    Every byte so has the chance `share`, and a large file gets a chunk every 1/share units.
    """
    drawn: list[Drawn] = []
    for path, size, relative in files:
        units = -(-size // CHUNK)
        picked = _picks(units, share, phase)
        phase = (phase + units * share) % 1.0
        if picked:
            pieces = [
                Piece(path, min(CHUNK, size - unit * CHUNK), relative, unit * CHUNK)
                for unit in picked
            ]
            drawn.append((size, pieces))
    return drawn


def _trim(drawn: list[Drawn], budget: int, share: float) -> None:
    """Cut the draw down to the budget, taking from the files that got most beyond their share.

    A file loses its last piece (the highest offset), so every other piece stays whole and
    starts its copy at a whole chunk; files left with nothing are dropped.
    """
    excess = sum(sample_size(pieces) for _, pieces in drawn) - budget
    while excess > 0:
        _, pieces = max(drawn, key=lambda found: sample_size(found[1]) - found[0] * share)
        last = pieces[-1]
        if last.length <= excess:
            pieces.pop()
            excess -= last.length
        else:
            pieces[-1] = dataclasses.replace(last, length=last.length - excess)
            excess = 0
        drawn[:] = [found for found in drawn if found[1]]


def _picks(units: int, share: float, phase: float) -> list[int]:
    """The units of one file where the counter, starting at `phase`, passes a whole number."""
    picked = set()
    for passed in range(1, math.floor(phase + units * share) + 1):
        # Unit j spans the counter values (phase + j*share, phase + (j+1)*share].
        unit = math.ceil((passed - phase) / share) - 1
        picked.add(min(max(unit, 0), units - 1))
    return sorted(picked)


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


def describe(sample: Sample) -> str:
    """What the sample was, in words: 'Sample: 32.0 MiB of 192.0 MiB from 4 of 4 files (...)'."""
    size, whole = format_bytes(sample.bytes), format_bytes(sample.source_bytes)
    if not sample.tree:
        if sample.bytes >= sample.source_bytes:
            return f"Sample: all {whole} of it."
        return f"Sample: {size} of {whole}, in {CHUNK // MIB} MiB chunks spread over it."
    files = "file" if sample.source_files == 1 else "files"
    if sample.bytes >= sample.source_bytes:
        return f"Sample: the whole source, {whole} in {sample.source_files} {files}."
    how = "random files"
    if sample.whole_files < sample.files:
        how += f", large ones in {CHUNK // MIB} MiB chunks spread over them"
    return (
        f"Sample: {size} of {whole} from {sample.files} of {sample.source_files} {files} ({how})."
    )


def summary(sample: Sample) -> dict[str, Any]:
    """The sample as the job's result keeps it."""
    return {
        "bytes": sample.bytes,
        "files": sample.files,
        "whole_files": sample.whole_files,
        "source_files": sample.source_files,
        "source_bytes": sample.source_bytes,
        "chunk_bytes": CHUNK,
        "seed": SEED,
        "description": describe(sample),
    }


def copy_sample(
    pieces: Sequence[Piece], target: Path, progress: Progress | None = None, chunk: int = CHUNK
) -> CopyResult:
    """Write every source file's pieces into one file under `target`, fsync each, and time it."""
    started = time.monotonic()
    done = 0
    files = 0
    for relative, group in itertools.groupby(pieces, key=lambda piece: piece.relative):
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        with destination.open("wb") as dst:
            for piece in group:
                done = _copy_piece(piece, dst, done, progress, chunk)
            dst.flush()
            # Each file on stable storage before the clock stops: the compression, checksums
            # and (for dedup) table updates are then all inside the measured time.
            os.fsync(dst.fileno())
        files += 1
    return CopyResult(done, files, time.monotonic() - started)


def _copy_piece(
    piece: Piece, dst: BinaryIO, done: int, progress: Progress | None, chunk: int
) -> int:
    """Append one piece to `dst`; the bytes done so far, this piece's included."""
    with piece.source.open("rb") as src:
        for block in _chunks(src.fileno(), piece.offset, piece.length, chunk):
            dst.write(block)
            done += len(block)
            if progress:
                progress(done)
    return done


def warm_sample(pieces: Sequence[Piece], progress: Progress | None = None) -> int:
    """Read the sample once so every setting reads its source from the cache alike."""
    done = 0
    for piece in pieces:
        with piece.source.open("rb") as src:
            for block in _chunks(src.fileno(), piece.offset, piece.length, CHUNK):
                done += len(block)
                if progress:
                    progress(done)
    return done


def _chunks(fd: int, offset: int, length: int, chunk: int) -> Iterator[bytes]:
    """Up to `length` bytes from `offset` of an open file in blocks of `chunk` (fewer if it
    is shorter)."""
    done = 0
    while done < length:
        block = os.pread(fd, min(chunk, length - done), offset + done)
        if not block:
            return  # the file shrank since it was planned
        done += len(block)
        yield block

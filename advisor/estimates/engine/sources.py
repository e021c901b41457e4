"""The input as ZFS would cut it: files (or one zvol stream) split into blocks, holes left out."""

from __future__ import annotations

import bisect
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from advisor.estimates.engine.accounting import MIN_BLOCK, round_up
from storage.zfs.extents import data_extents

KINDS = ("dataset", "zvol", "path")


@dataclass(frozen=True)
class Input:
    """What to estimate: a dataset (its mountpoint), a zvol (its device) or any path."""

    kind: str  # one of KINDS
    name: str
    path: Path
    block_size: int  # recordsize, or volblocksize for a zvol
    sector_size: int = 4096  # 2^ashift of the pool the data is (or would be) on


@dataclass(frozen=True)
class FileBlocks:
    """One file (or the zvol) as blocks: their size and the ranges of blocks that hold data."""

    path: str
    size: int
    lsize: int  # every block of the file has this logical size
    ranges: tuple[tuple[int, int], ...]  # (first, end) block indexes holding written data

    @property
    def blocks(self) -> int:
        """How many blocks hold data."""
        return sum(end - first for first, end in self.ranges)

    def block_index(self, nth: int) -> int:
        """The block index of the `nth` data block."""
        for first, end in self.ranges:
            if nth < end - first:
                return first + nth
            nth -= end - first
        raise IndexError(nth)


@dataclass
class Layout:
    """Every data block of the input, numbered in reading order."""

    files: list[FileBlocks] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # ordinal of each file's first data block
    blocks: int = 0
    bytes: int = 0  # apparent size of the files
    logical: int = 0  # lsize of all data blocks: what ZFS stores with compression off
    skipped: int = 0  # files that could not be read

    def add(self, file: FileBlocks) -> None:
        """Append a file's blocks."""
        self.files.append(file)
        self.starts.append(self.blocks)
        self.blocks += file.blocks
        self.bytes += file.size
        self.logical += file.blocks * file.lsize

    def locate(self, ordinal: int) -> tuple[FileBlocks, int]:
        """(file, block index in it) of the data block numbered `ordinal`."""
        at = bisect.bisect_right(self.starts, ordinal) - 1
        # Files without data blocks share their start with the next one: step past them.
        while self.files[at].blocks <= ordinal - self.starts[at]:
            at += 1
        return self.files[at], self.files[at].block_index(ordinal - self.starts[at])


def block_ranges(fd: int, size: int, block_size: int) -> tuple[tuple[int, int], ...]:
    """Merged (first, end) ranges of the blocks that hold any written byte."""
    ranges: list[tuple[int, int]] = []
    for start, end in data_extents(fd, size):
        first, stop = start // block_size, (end - 1) // block_size + 1
        if ranges and first <= ranges[-1][1]:
            first = ranges.pop()[0]  # touches the previous extent's last block: one range
        ranges.append((first, stop))
    return tuple(ranges)


def file_blocks(path: str, *, volume: bool, block_size: int) -> FileBlocks:
    """How ZFS cuts one file: one 512-rounded block within a record, else whole records."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        size = os.lseek(fd, 0, os.SEEK_END)  # st_size is 0 for a block device
        if volume:
            # A zvol is one stream of volblocksize blocks; its holes read as zeros.
            return FileBlocks(
                path, size, block_size, ((0, -(-size // block_size)),) if size else ()
            )
        if size <= block_size:
            lsize = round_up(size, MIN_BLOCK)
            return FileBlocks(path, size, lsize, block_ranges(fd, size, max(lsize, 1)))
        return FileBlocks(path, size, block_size, block_ranges(fd, size, block_size))
    finally:
        os.close(fd)


def walk_files(root: Path, tick: Callable[[int], None]) -> Iterator[str]:
    """Regular files under `root` on its own file system (child datasets are not counted)."""
    top = os.stat(root)
    if stat.S_ISREG(top.st_mode) or stat.S_ISBLK(top.st_mode):
        yield str(root)
        return
    seen: set[tuple[int, int]] = set()  # hard links: ZFS stores the file once
    pending, count = [str(root)], 0
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        for entry in entries:
            info = entry_stat(entry)
            if info.st_dev != top.st_dev:
                continue  # a mount below the root: another dataset, counted on its own
            if stat.S_ISDIR(info.st_mode):
                pending.append(entry.path)
            elif stat.S_ISREG(info.st_mode) and _first_link(info, seen):
                count += 1
                tick(count)
                yield entry.path


def entry_stat(entry: os.DirEntry[str]) -> os.stat_result:
    """A directory entry's own stat (a symlink is not followed)."""
    return entry.stat(follow_symlinks=False)


def _first_link(info: os.stat_result, seen: set[tuple[int, int]]) -> bool:
    """True the first time a file (by inode) is met."""
    if info.st_nlink < 2:
        return True
    key = (info.st_dev, info.st_ino)
    if key in seen:
        return False
    seen.add(key)
    return True


def layout(inp: Input, tick: Callable[[int], None] = lambda _n: None) -> Layout:
    """Walk the input and number its data blocks."""
    found = Layout()
    volume = inp.kind == "zvol"
    for path in walk_files(inp.path, tick):
        try:
            found.add(file_blocks(path, volume=volume, block_size=inp.block_size))
        except OSError:
            found.skipped += 1  # vanished or unreadable: the note says how many
    return found


def read_block(file: FileBlocks, index: int) -> bytes:
    """Block `index` of a file, padded with zeros to its lsize as ZFS pads a tail."""
    with open(file.path, "rb", buffering=0) as handle:
        handle.seek(index * file.lsize)
        data = handle.read(file.lsize) or b""
    return data.ljust(file.lsize, b"\0")

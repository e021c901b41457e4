"""Is a restored copy the same as its original? Two file trees, or two block devices, compared.

A test restore is worth something only if it reads everything back: every regular file's
bytes, every entry's type, permissions, owner, size and modification time (a restore brings
them all back, as `zfs send` carries them), and every link's target. The first differences
are named in words; the run says how many files and bytes it read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 20
SHOWN = 10  # differences named; the count says if there were more
CONTROL = ".zfs"  # OpenZFS's snapshot directory at a file system's root, when made visible

Report = Callable[[int, int], None]  # bytes compared, bytes to compare


@dataclass(frozen=True)
class Verdict:
    """What was compared and the differences found (the first SHOWN of `different`)."""

    files: int
    compared_bytes: int
    differences: tuple[str, ...]
    different: int

    @property
    def same(self) -> bool:
        return self.different == 0


@dataclass(frozen=True)
class _Entry:
    kind: str  # "file", "dir", "link" or "other"
    mode: int
    owner: tuple[int, int]
    size: int
    mtime_ns: int


class _Findings:
    """Differences as they are found: every one counted, the first ones kept in words."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self.count = 0

    def add(self, text: str) -> None:
        self.count += 1
        if len(self.words) < SHOWN:
            self.words.append(text)


def compare_trees(original: Path, restored: Path, report: Report | None = None) -> Verdict:
    """Compare two directory trees entry by entry, then file by file."""
    tell = report or (lambda _done, _total: None)
    before, after = _index(original), _index(restored)
    found = _Findings()
    for rel in sorted(before.keys() - after.keys()):
        found.add(f"{rel}: missing from the restore")
    for rel in sorted(after.keys() - before.keys()):
        found.add(f"{rel}: in the restore but not in the original")
    common = sorted(before.keys() & after.keys())
    total = sum(before[rel].size for rel in common if before[rel].kind == "file")
    done = 0
    for rel in common:
        first, second = before[rel], after[rel]
        problem = _entry_problem(first, second) or _content_problem(
            original / rel, restored / rel, first
        )
        if problem:
            found.add(f"{rel}: {problem}")
        if first.kind == "file":
            done += first.size
            tell(done, total)
    files = sum(1 for entry in before.values() if entry.kind == "file")
    return Verdict(files, done, tuple(found.words), found.count)


def compare_devices(original: Path, restored: Path, report: Report | None = None) -> Verdict:
    """Compare two block devices (or image files) byte for byte."""
    tell = report or (lambda _done, _total: None)
    sizes = _device_size(original), _device_size(restored)
    if sizes[0] != sizes[1]:
        problem = f"the restore holds {sizes[1]} bytes, the original {sizes[0]}"
        return Verdict(1, 0, (problem,), 1)
    offset = _first_difference(original, restored, lambda done: tell(done, sizes[0]))
    if offset is not None:
        problem = f"the bytes differ from offset {offset} (a {CHUNK}-byte block)"
        return Verdict(1, offset, (problem,), 1)
    return Verdict(1, sizes[0], (), 0)


def _index(root: Path) -> dict[str, _Entry]:
    """Every entry under `root` by its relative path (links not followed)."""
    return {rel: _entry_of(path) for rel, path in _walk(root)}


def _walk(root: Path) -> Iterator[tuple[str, Path]]:
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        if here == root and CONTROL in dirs:
            dirs.remove(CONTROL)
        for name in [*dirs, *files]:
            path = here / name
            yield str(path.relative_to(root)), path


def _entry_of(path: Path) -> _Entry:
    info = path.lstat()
    if stat.S_ISREG(info.st_mode):
        kind = "file"
    elif stat.S_ISDIR(info.st_mode):
        kind = "dir"
    elif stat.S_ISLNK(info.st_mode):
        kind = "link"
    else:
        kind = "other"
    return _Entry(
        kind, stat.S_IMODE(info.st_mode), (info.st_uid, info.st_gid), info.st_size, info.st_mtime_ns
    )


def _entry_problem(first: _Entry, second: _Entry) -> str:
    """How two entries' kind and metadata differ, in words ("" when they do not)."""
    if first.kind != second.kind:
        return f"a {first.kind} in the original, a {second.kind} in the restore"
    if first.mode != second.mode:
        return f"permissions {second.mode:o}, not {first.mode:o}"
    if first.owner != second.owner:
        return f"owner {second.owner[0]}:{second.owner[1]}, not {first.owner[0]}:{first.owner[1]}"
    if first.kind == "dir":
        return ""  # a folder's size and time follow what is written in it, not the restore
    if first.size != second.size:
        return f"{second.size} bytes, not {first.size}"
    if first.mtime_ns != second.mtime_ns:
        return "modified at another time than the original"
    return ""


def _content_problem(first_path: Path, second_path: Path, entry: _Entry) -> str:
    """How two entries' contents differ, in words ("" when they do not)."""
    if entry.kind == "link":
        if os.readlink(first_path) != os.readlink(second_path):
            return "the link points elsewhere"
        return ""
    if entry.kind != "file":
        return ""
    offset = _first_difference(first_path, second_path)
    return "" if offset is None else f"the contents differ from offset {offset}"


def _first_difference(
    first_path: Path, second_path: Path, tell: Callable[[int], None] | None = None
) -> int | None:
    """The offset of the first CHUNK that differs (None: the same bytes); `tell` hears the
    bytes read so far."""
    offset = 0
    with open(first_path, "rb") as first, open(second_path, "rb") as second:
        while chunk := first.read(CHUNK):
            if second.read(CHUNK) != chunk:
                return offset
            offset += len(chunk)
            if tell:
                tell(offset)
    return None


def _device_size(path: Path) -> int:
    with open(path, "rb") as handle:
        return handle.seek(0, os.SEEK_END)

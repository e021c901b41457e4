"""A sandbox snapshot's files: copies of a tree, put back, compared, the bytes only they hold."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

from storage.zfs.base import DiffEntry
from storage.zfs.errors import (
    ZfsError,
)

BLOCK = 4096


def copy_tree(source: Path, target: Path) -> None:
    """Copy a directory tree or a zvol file, keeping holes and modes."""
    target.parent.mkdir(parents=True, exist_ok=True)
    argv = ["cp", "-a", "--sparse=always", "--reflink=auto", "--", str(source), str(target)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        remove_tree(target)
        raise ZfsError(f"cannot copy {source}: {done.stderr.strip()}")


def remove_tree(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def restore_tree(copy: Path, live: Path) -> None:
    """Make `live` hold what `copy` holds, keeping `live` itself (shares point at it)."""
    if live.is_dir():
        for entry in list(live.iterdir()):
            remove_tree(entry)
        for entry in copy.iterdir():
            copy_tree(entry, live / entry.name)
        shutil.copystat(copy, live)
        return
    with open(live, "r+b") as handle:
        handle.truncate(0)
    argv = ["cp", "--sparse=always", "--", str(copy), str(live)]
    subprocess.run(argv, capture_output=True, check=True)


def _entries(root: Path) -> dict[str, os.stat_result]:
    """Relative path -> lstat of everything under a directory."""
    found: dict[str, os.stat_result] = {}
    for top, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(top) / name
            found[str(path.relative_to(root))] = path.lstat()
    return found


def tree_diff(old_root: Path, new_root: Path, mountpoint: str) -> list[DiffEntry]:
    """Compare two trees the way `zfs diff -F` reports them, paths under the mountpoint."""
    old, new = _entries(old_root), _entries(new_root)
    out: list[DiffEntry] = []
    for rel in sorted(old.keys() | new.keys()):
        before, after = old.get(rel), new.get(rel)
        kind = _file_type(after or before)
        path = f"{mountpoint}/{rel}"
        if before is None:
            out.append(DiffEntry("added", kind, path))
        elif after is None:
            out.append(DiffEntry("removed", kind, path))
        elif kind == "file" and _changed(old_root / rel, new_root / rel, before, after):
            out.append(DiffEntry("modified", kind, path))
    return out


def _file_type(info: os.stat_result | None) -> str:
    mode = info.st_mode if info else 0
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISLNK(mode):
        return "symlink"
    return "file"


def _changed(old: Path, new: Path, before: os.stat_result, after: os.stat_result) -> bool:
    if before.st_size != after.st_size:
        return True
    return old.read_bytes() != new.read_bytes()


def unique_bytes(copy: Path, live: Path) -> int:
    """Bytes of the snapshot's files that the live data no longer holds unchanged."""
    if copy.is_file():
        return 0 if not live.exists() else _zvol_changed_bytes(copy, live)
    total = 0
    for rel, info in _entries(copy).items():
        if not os.path.isfile(copy / rel) or os.path.islink(copy / rel):
            continue
        other = live / rel
        try:
            now = other.lstat()
        except FileNotFoundError:
            total += info.st_blocks * 512
            continue
        if now.st_size != info.st_size or now.st_mtime_ns != info.st_mtime_ns:
            total += info.st_blocks * 512
    return total


def written_bytes(live: Path, snap: Path | None) -> int:
    """Bytes of the live data that `snap` (the newest snapshot's copy) does not hold as it is;
    all of it without a snapshot. A change that writes no data (a removal, an empty file, a
    mode) counts as one 4 KiB block, so 0 means nothing changed, as OpenZFS's `written`."""
    if live.is_file():
        if snap is None:
            with open(live, "rb") as handle:
                return sum(end - start for start, end in data_extents(handle.fileno()))
        return _zvol_changed_bytes(live, snap) or _zvol_changed_bytes(snap, live)
    new = _entries(live)
    old = _entries(snap) if snap is not None else {}
    total = sum(BLOCK for rel in old if rel not in new)
    for rel, info in new.items():
        if not _same_entry(old.get(rel), info):
            data = info.st_blocks * 512 if stat.S_ISREG(info.st_mode) else 0
            total += data or BLOCK
    return total


def _same_entry(before: os.stat_result | None, after: os.stat_result) -> bool:
    """An entry as it was: same type and mode; a file or link also of the same size and time."""
    if before is None or before.st_mode != after.st_mode:
        return False
    if stat.S_ISDIR(after.st_mode):
        return True  # its time moves with its contents, which are compared one by one
    return before.st_size == after.st_size and before.st_mtime_ns == after.st_mtime_ns


def _zvol_changed_bytes(copy: Path, live: Path) -> int:
    """Bytes of a zvol's snapshot that differ from the zvol now, reading only written extents."""
    chunk = 1 << 20
    total = 0
    with open(copy, "rb") as old, open(live, "rb") as new:
        for start, end in data_extents(old.fileno()):
            for offset in range(start, end, chunk):
                size = min(chunk, end - offset)
                if os.pread(old.fileno(), size, offset) != os.pread(new.fileno(), size, offset):
                    total += size
    return total


def data_extents(fd: int) -> list[tuple[int, int]]:
    """(start, end) of the data regions of a sparse file (SEEK_DATA / SEEK_HOLE)."""
    size = os.fstat(fd).st_size
    found, offset = [], 0
    while offset < size:
        try:
            start = os.lseek(fd, offset, os.SEEK_DATA)
        except OSError:  # ENXIO: no data after offset
            break
        end = os.lseek(fd, start, os.SEEK_HOLE)
        found.append((start, end))
        offset = end
    return found

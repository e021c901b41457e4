"""Which processes hold files open under a directory (a target serving a zvol, a shell)."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def open_files_under(directory: Path) -> list[tuple[int, str]]:
    """(pid, path) of every open file below `directory`, from /proc/PID/fd."""
    prefix = str(directory.resolve()) + os.sep
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue  # gone, or another user's process
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith(prefix):
                found.append((int(entry.name), target))
    return found


def describe(holders: list[tuple[int, str]]) -> str:
    """A short explanation for an error message."""
    pid, path = holders[0]
    more = f" and {len(holders) - 1} more" if len(holders) > 1 else ""
    return f"{path} is open in process {pid}{more}"

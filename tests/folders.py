"""Folders the tests' servers serve."""

from __future__ import annotations

from pathlib import Path


def traversable(path: Path) -> None:
    """Let every user pass through `path` and the folders above it (not list them).

    smbd serves a share as the session's user: pytest's own temporary folders are the root's
    alone, where a NAS's pools are mounted under folders anyone may pass through.
    """
    for folder in (path, *path.parents):
        if folder == Path("/"):
            break
        mode = folder.stat().st_mode
        if not mode & 0o001:
            folder.chmod(mode | 0o001)

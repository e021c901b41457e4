"""Durable file writes: a crash leaves either the old file or the new one, never a torn one."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_if_changed(path: Path | str, text: str, *, mode: int = 0o600) -> bool:
    """Write `text` atomically unless the file already holds exactly it; return whether it wrote."""
    target = Path(path)
    with contextlib.suppress(OSError, UnicodeDecodeError):
        if target.read_text() == text:
            return False
    write_atomic(target, text, mode=mode)
    return True


def write_atomic(path: Path | str, content: str | bytes, *, mode: int = 0o600) -> None:
    """Write `content` (text as UTF-8) through a temporary file, fsync, rename and an fsync of
    the directory."""
    target = Path(path)
    data = content.encode() if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_directory(target.parent)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable: without this a power cut can undo it."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in `path`, or None (no file, not JSON, or not an object)."""
    try:
        value = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return None
    return value if isinstance(value, dict) else None

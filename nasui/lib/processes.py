"""Processes and their logs, as the supervisors of the panel's own daemons see them."""

from __future__ import annotations

import os
from pathlib import Path

LOG_TAIL_LINES = 8


def is_alive(pid: int) -> bool:
    """Whether a process with this pid exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    # The state letter follows the parenthesised command name.
    return stat.rpartition(")")[2].split()[0] != "Z"


def log_tail(path: Path | None, lines: int = LOG_TAIL_LINES) -> str:
    """The last lines of a daemon's log (where it says why it failed), or '' when there is none."""
    if path is None:
        return ""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 8192))
            text = handle.read().decode(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])

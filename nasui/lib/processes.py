"""Processes and their logs, as the supervisors of the panel's own daemons see them."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from pathlib import Path

LOG_TAIL_LINES = 8
POLL_SECONDS = 0.05


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


def wait_gone(pid: int, timeout: float, *, child: subprocess.Popen[bytes] | None = None) -> bool:
    """Wait until `pid` has exited (a zombie counts as gone); False if it outlived `timeout`.

    When `pid` is our own `child`, its exit is read with poll(): it stays a zombie, and alive
    to /proc, until it is reaped.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child is not None and child.pid == pid:
            if child.poll() is not None:
                return True
        elif not is_alive(pid):
            return True
        time.sleep(POLL_SECONDS)
    return False


def reap(child: subprocess.Popen[bytes] | None, timeout: float) -> None:
    """Collect a child's exit status so no zombie is left behind."""
    if child is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=timeout)

"""The one error type for a failed external command (zpool, zfs, tgtadm, targetcli...), and a
run that raises it."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence


class CommandError(Exception):
    """A command failed; carries its argv, exit status, stderr and the tail of a daemon's log.

    A daemon's tools often say little ("invalid request"); the daemon's own log says why, so
    the error carries its last lines, labelled with `log_label` (a subclass names its daemon).
    """

    log_label = "daemon log"

    def __init__(
        self,
        message: str,
        *,
        argv: Sequence[str] = (),
        returncode: int | None = None,
        stderr: str = "",
        log_tail: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.argv = tuple(argv)
        self.returncode = returncode
        self.stderr = stderr
        self.log_tail = log_tail

    def details(self) -> list[str]:
        """The daemon's last log lines, when there are any."""
        tail = self.log_tail.strip()
        return [f"{self.log_label}: {tail}"] if tail else []

    def __str__(self) -> str:
        # Tests and logs show this: the command and its own words are what explain a failure.
        parts = [self.message]
        if self.argv:
            parts.append(f"command: {' '.join(self.argv)}")
        if self.returncode is not None:
            parts.append(f"exit status: {self.returncode}")
        if self.stderr.strip() and self.stderr.strip() != self.message:
            parts.append(f"stderr: {self.stderr.strip()}")
        return "; ".join(parts + self.details())


def run_checked(argv: Sequence[str], *, timeout: float) -> str:
    """Run `argv` (no shell) and return its stdout; CommandError whose message is the
    command's own words (stderr, else stdout) when it fails, cannot start or times out."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CommandError(f"{argv[0]}: {exc}", argv=argv) from exc
    if done.returncode != 0:
        words = (done.stderr or done.stdout).strip() or f"{argv[0]} failed"
        raise CommandError(words, argv=argv, returncode=done.returncode, stderr=done.stderr)
    return done.stdout

"""The one error type for a failed external command (zpool, zfs, tgtadm, targetcli...)."""

from __future__ import annotations

from collections.abc import Sequence


class CommandError(Exception):
    """A command failed; carries its argv, exit status and stderr for messages and logs."""

    def __init__(
        self,
        message: str,
        *,
        argv: Sequence[str] = (),
        returncode: int | None = None,
        stderr: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.argv = tuple(argv)
        self.returncode = returncode
        self.stderr = stderr

    def details(self) -> list[str]:
        """Extra lines a subclass adds after the command's own words (a daemon's log...)."""
        return []

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

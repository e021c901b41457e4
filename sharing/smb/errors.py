"""Typed errors of the SMB engine: a refused configuration, a missing tool, a failed daemon."""

from __future__ import annotations

from collections.abc import Sequence

from nasui.lib.commands import CommandError

ENGINE = "samba"


class SmbEngineError(CommandError):
    """Base of every error the SMB engine raises at run time (spec errors are SmbError)."""

    def __init__(
        self,
        message: str,
        *,
        argv: Sequence[str] = (),
        returncode: int | None = None,
        stderr: str = "",
        log_tail: str = "",
    ) -> None:
        super().__init__(message, argv=argv, returncode=returncode, stderr=stderr)
        self.log_tail = log_tail

    def details(self) -> list[str]:
        """The daemon's last log lines: they say why smbd refused or died."""
        return [f"smbd log: {self.log_tail.strip()}"] if self.log_tail.strip() else []


class SmbUnavailable(SmbEngineError):
    """A Samba tool or wrapper library is not installed."""


class SmbCommandFailed(SmbEngineError):
    """A Samba tool (pdbedit, smbcontrol...) exited with an error or timed out."""


class ConfigRejected(SmbEngineError):
    """testparm refused the rendered smb.conf; the running one was left as it was."""


class SmbStartFailed(SmbEngineError):
    """smbd could not be started, died at start, or does not listen where it should."""


class NotConfigured(SmbEngineError):
    """smbd cannot start before a configuration has been applied."""


class PasswordRefused(SmbEngineError):
    """A password Samba cannot take (empty, a line break, a NUL)."""

"""Typed errors of the SMB engine: a refused configuration, a missing tool, a failed daemon."""

from __future__ import annotations

from nasui.lib.commands import CommandError

ENGINE = "samba"


class SmbEngineError(CommandError):
    """Base of every error the SMB engine raises at run time (spec errors are SmbError)."""

    log_label = "smbd log"


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

"""Typed errors of the NFS engine: a spec exports(5) cannot carry, a refusal, a missing tool."""

from __future__ import annotations

from nasui.lib.commands import CommandError

ENGINE = "nfs-kernel-server"


class NfsError(ValueError):
    """An export spec the panel refuses (checked on creation, before anything is written)."""


class NfsEngineError(CommandError):
    """Base of every error the NFS engine raises at run time (spec errors are NfsError)."""


class NfsUnavailable(NfsEngineError):
    """exportfs or another NFS tool is not installed."""


class NfsCommandFailed(NfsEngineError):
    """An NFS tool (the service restart...) exited with an error or timed out."""


class ExportsRejected(NfsEngineError):
    """exportfs refused the rendered exports; the previous file was put back and re-exported."""

"""Typed errors of the iSCSI layer: bad specs, settings an engine cannot express, failures."""

from __future__ import annotations

from collections.abc import Sequence

from nasui.lib.commands import CommandError

# Arguments whose value is a secret: never shown in messages or logs.
SECRET_FLAGS = frozenset({"--password"})
REDACTED = "********"


def redact(argv: Sequence[str]) -> tuple[str, ...]:
    """The argv with every secret value replaced, safe to log and to show."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        flag, sep, _value = arg.partition("=")
        if flag in SECRET_FLAGS and sep:
            out.append(f"{flag}={REDACTED}")
            continue
        out.append(arg)
        hide_next = arg in SECRET_FLAGS
    return tuple(out)


class IscsiError(Exception):
    """Base of every error raised by the iSCSI engines."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidSpec(IscsiError, ValueError):
    """A desired-state value is malformed (bad IQN, block size, CIDR, CHAP user...)."""


class BackingStoreMissing(InvalidSpec):
    """A LUN's backing file or device does not exist or cannot be opened."""


class UnsupportedByEngine(IscsiError):
    """The engine cannot express a setting faithfully, so it refuses rather than weaken it."""

    def __init__(self, engine: str, message: str) -> None:
        super().__init__(f"{engine}: {message}")
        self.engine = engine


class EngineFailure(CommandError, IscsiError):
    """A target command failed; carries its (redacted) argv, status, stderr and the log tail."""

    def __init__(
        self,
        message: str,
        *,
        argv: Sequence[str] = (),
        returncode: int | None = None,
        stderr: str = "",
        log_tail: str = "",
    ) -> None:
        super().__init__(
            message, argv=redact(argv), returncode=returncode, stderr=stderr, log_tail=log_tail
        )


class EngineUnavailable(EngineFailure):
    """The target tools are missing, or the daemon is not running or not answering."""


class EngineTimeout(EngineFailure):
    """A command did not finish within its timeout (it was killed)."""


class EngineStartFailed(EngineFailure):
    """The daemon could not be started (port in use, bad portal, socket path too long...)."""

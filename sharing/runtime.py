"""The servers the panel runs (iSCSI, SMB, NFS), each behind one interface, and their registry.

Every protocol implements `ServiceRuntime` in its own `runtime` module: apply the database's
configuration to the running server, restore it after a refused change, report its state,
start and stop it, and supervise it. The protocols register their runtime when the app is
ready (sharing.apps), so what loops over the services (the Services page, a change that
concerns several servers, the boot daemons) names them and never imports a protocol.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from nasui.lib.commands import CommandError
from sharing.models.service import ServiceSettings

log = logging.getLogger(__name__)


class ApplyError(Exception):
    """A server refused the configuration, or an action; the message names it and says why."""


def in_words(exc: Exception) -> str:
    """What a server said, for a person: a command's own message, without the daemon's log
    (the whole error, log included, goes to the panel's log: `refused`)."""
    return exc.message if isinstance(exc, CommandError) else str(exc)


def refused(what: str, exc: Exception) -> ApplyError:
    """ApplyError("<what>: <the server's words>"), the full error logged."""
    log.warning("%s: %s", what, exc)
    return ApplyError(f"{what}: {in_words(exc)}")


@dataclass(frozen=True)
class ServiceStatus:
    """What a runtime says of its server now."""

    running: bool
    served: bool = True  # False where this machine runs no such server for the panel
    message: str = ""  # why it is stopped or unreadable, when known
    engine: str = ""  # which server: "lio", "tgt", "wrapped", "system", "kernel"...
    engine_label: str = ""  # the same in words: "LIO (kernel target)", "wrapped smbd"...
    port: int | None = None
    sessions: list[dict[str, str]] = field(default_factory=list)  # connected clients

    @property
    def actions(self) -> list[str]:
        """The controls that make sense now."""
        if not self.served:
            return []
        return ["restart", "stop"] if self.running else ["start"]


class ServiceRuntime(Protocol):
    """One server of the panel, as everything above the protocols sees it."""

    name: str  # "iscsi", "smb", "nfs": the Services page's and the API's key
    label: str  # "iSCSI"
    lock: str  # its apply lock (sharing.apply): servers that share state share one

    def settings(self) -> ServiceSettings:
        """The settings row that holds its "start at boot"."""
        ...

    def apply(self) -> None:
        """Give the running server the database's configuration (ApplyError if it refuses)."""
        ...

    def restore(self) -> None:
        """After a refused change was rolled back: the saved configuration again (logged)."""
        ...

    def status(self) -> ServiceStatus:
        """Running or not, its engine and port, its clients, and what went wrong."""
        ...

    def control(self, action: str) -> None:
        """Start, stop or restart it now (ApplyError naming the server if it cannot)."""
        ...

    def supervise(self, *, first: bool = False) -> str | None:
        """Bring it back if it died, unless a user stopped it; what it did, in words, or None.

        `first` is the first check of a boot: "start at boot" and this boot's choices decide,
        and the configuration is applied even when the server seems up.
        """
        ...

    def shutdown(self) -> str | None:
        """What its supervisor does on exit: stop a daemon the panel runs; what it did."""
        ...


_runtimes: dict[str, ServiceRuntime] = {}
# (user name, password) -> the NT hash SMB keeps: made by Samba's own tool, so the SMB runtime
# registers its maker, and the accounts (below every protocol) ask for it here.
NtHasher = Callable[[str, str], str]
_nt_hashers: list[NtHasher] = []


def register(runtime: ServiceRuntime) -> None:
    """Add a protocol's runtime (sharing.apps does, at start-up), in the Services page's order."""
    _runtimes[runtime.name] = runtime


def runtime(name: str) -> ServiceRuntime:
    """The runtime called `name` (KeyError when no protocol registered it)."""
    return _runtimes[name]


def runtimes() -> list[ServiceRuntime]:
    """Every registered runtime, in the order they registered."""
    return list(_runtimes.values())


def register_nt_hasher(hasher: NtHasher) -> None:
    """Say how NT hashes are made (the SMB runtime does, at start-up)."""
    _nt_hashers[:] = [hasher]


def nt_hash(username: str, password: str) -> str:
    """The NT hash of `password` for SMB logins (ApplyError when nothing can make one)."""
    if not _nt_hashers:
        raise ApplyError("No SMB server is set up to take passwords.")
    return _nt_hashers[0](username, password)


def describe(status: ServiceStatus) -> dict[str, Any]:
    """A status as the Services page and API show it (the engine in words)."""
    return {
        "served": status.served,
        "running": status.running,
        "actions": status.actions,
        "message": status.message,
        "engine": status.engine_label,
        "port": status.port,
        "sessions": status.sessions,
    }

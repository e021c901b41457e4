"""What every iSCSI engine offers (tgt now, LIO later) and the plain results it returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from sharing.iscsi.engine.desired import DesiredState

Action = Literal["add", "change", "remove"]
Kind = Literal["portal", "target", "lun", "acl", "account", "binding", "discovery"]


@dataclass(frozen=True)
class Change:
    """One thing an engine changed in the running target."""

    action: Action
    kind: Kind
    subject: str
    target: str = ""
    detail: str = ""

    def __str__(self) -> str:
        where = f" on {self.target}" if self.target else ""
        more = f" ({self.detail})" if self.detail else ""
        return f"{self.action} {self.kind} {self.subject}{where}{more}"


@dataclass(frozen=True)
class ChangeReport:
    """What one `apply` changed; empty when the running state already matched."""

    engine: str
    changes: tuple[Change, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether anything was changed."""
        return bool(self.changes)

    def of_kind(self, kind: Kind) -> tuple[Change, ...]:
        """The changes concerning one kind of object."""
        return tuple(change for change in self.changes if change.kind == kind)

    def lines(self) -> list[str]:
        """One human-readable line per change."""
        return [str(change) for change in self.changes]


@dataclass(frozen=True)
class Session:
    """A connected initiator: which target, its name and address."""

    target: str
    initiator: str
    address: str
    session_id: int
    connection_id: int = 0
    alias: str = ""


@runtime_checkable
class IscsiEngine(Protocol):
    """A running iSCSI target that can be started, reconciled with a desired state and read."""

    name: str
    # The lowest LUN id the engine can offer (tgt keeps LUN 0 for its controller, LIO does not).
    first_lun: int

    def start(self) -> None:
        """Start (or attach to) the target service; return once it answers."""
        ...

    def stop(self) -> None:
        """Remove every target and stop the service."""
        ...

    def is_running(self) -> bool:
        """Whether the target service answers."""
        ...

    def validate(self, desired: DesiredState) -> None:
        """Raise UnsupportedByEngine/InvalidSpec if the state cannot be applied faithfully."""
        ...

    def apply(self, desired: DesiredState) -> ChangeReport:
        """Reconcile the running target with the desired state and report what changed."""
        ...

    def sessions(self) -> list[Session]:
        """The initiators connected right now."""
        ...

    def refresh_lun_size(self, iqn: str, lun: int) -> ChangeReport:
        """Make initiators see a LUN's current backing size after it grew."""
        ...

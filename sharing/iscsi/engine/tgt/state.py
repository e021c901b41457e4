"""What tgtd shows as plain frozen data: targets with LUNs and sessions, accounts, portals.

`parsing` builds these from `tgtadm ... show`; the wanted side is the `DesiredState` itself
(tgt needs no translation of its own beyond `rules`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TgtLun:
    """A logical unit as tgt shows it (size is tgt's rounded figure in MB)."""

    lun: int
    type: str = ""
    scsi_id: str = ""
    serial: str = ""
    size_mb: int = 0
    block_size: int = 0
    online: bool = True
    readonly: bool = False
    thin: bool = False
    bstype: str = ""
    path: str = ""


@dataclass(frozen=True)
class TgtConnection:
    """One connection of an I_T nexus."""

    cid: int
    address: str


@dataclass(frozen=True)
class TgtNexus:
    """An I_T nexus: a logged-in initiator session."""

    nexus_id: int
    initiator: str
    alias: str = ""
    connections: tuple[TgtConnection, ...] = ()


@dataclass(frozen=True)
class TgtTarget:
    """A target as tgt shows it: LUNs, bound accounts, ACL entries, sessions."""

    tid: int
    name: str
    state: str = ""
    luns: tuple[TgtLun, ...] = ()
    incoming: tuple[str, ...] = ()
    outgoing: str | None = None
    acl: tuple[str, ...] = ()
    nexuses: tuple[TgtNexus, ...] = ()

    def lun(self, number: int) -> TgtLun | None:
        """The LUN with this number, if present."""
        return next((lu for lu in self.luns if lu.lun == number), None)


@dataclass(frozen=True)
class RunningState:
    """What tgtd shows: targets, account names and portals."""

    targets: tuple[TgtTarget, ...] = ()
    accounts: tuple[str, ...] = ()
    portals: tuple[tuple[str, int], ...] = ()

    def target(self, name: str) -> TgtTarget | None:
        """The running target with this name, if any."""
        return next((t for t in self.targets if t.name == name), None)


def tgt_size_mb(size: int) -> int:
    """The `Size: N MB` figure tgt prints for a size in bytes (its own rounding formula)."""
    sectors = size // 512
    return (sectors - (sectors // 625 - 974)) // 1950

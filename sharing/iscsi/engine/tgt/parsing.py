"""Turning `tgtadm` show output (tgt 1.0.85) into state; tested on captured real output."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from sharing.iscsi.engine.base import Session
from sharing.iscsi.engine.tgt.state import TgtConnection, TgtLun, TgtNexus, TgtTarget

_TARGET = re.compile(r"^Target (\d+): (\S+)$")
_SIZE = re.compile(r"^(\d+) MB, Block size: (\d+)$")
_PORTAL = re.compile(r"^Portal: (\[[^\]]+\]|[^:\s]+):(\d+),(\d+)$")
_OUTGOING = " (outgoing)"


@dataclass
class _LunDraft:
    """Mutable accumulator for one LUN block while parsing."""

    lun: int
    attrs: dict[str, str] = field(default_factory=dict)

    def build(self) -> TgtLun:
        """The finished, frozen LUN."""
        a = self.attrs
        size = _SIZE.match(a.get("Size", ""))
        return TgtLun(
            lun=self.lun,
            type=a.get("Type", ""),
            scsi_id=a.get("SCSI ID", ""),
            serial=a.get("SCSI SN", ""),
            size_mb=int(size.group(1)) if size else 0,
            block_size=int(size.group(2)) if size else 0,
            online=a.get("Online", "Yes") == "Yes",
            readonly=a.get("Readonly", "No") == "Yes",
            thin=a.get("Thin-provisioning", "No") == "Yes",
            bstype=a.get("Backing store type", ""),
            path="" if a.get("Backing store path", "None") == "None" else a["Backing store path"],
        )


@dataclass
class _NexusDraft:
    """Mutable accumulator for one I_T nexus block while parsing."""

    nexus_id: int
    initiator: str = ""
    alias: str = ""
    connections: list[TgtConnection] = field(default_factory=list)
    cid: int | None = None

    def build(self) -> TgtNexus:
        """The finished, frozen nexus."""
        return TgtNexus(self.nexus_id, self.initiator, self.alias, tuple(self.connections))


@dataclass
class _TargetDraft:
    """Mutable accumulator for one target block while parsing."""

    tid: int
    name: str
    section: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    luns: list[_LunDraft] = field(default_factory=list)
    nexuses: list[_NexusDraft] = field(default_factory=list)
    incoming: list[str] = field(default_factory=list)
    outgoing: str | None = None
    acl: list[str] = field(default_factory=list)

    def build(self) -> TgtTarget:
        """The finished, frozen target."""
        return TgtTarget(
            tid=self.tid,
            name=self.name,
            state=self.attrs.get("State", ""),
            luns=tuple(draft.build() for draft in self.luns),
            incoming=tuple(self.incoming),
            outgoing=self.outgoing,
            acl=tuple(self.acl),
            nexuses=tuple(draft.build() for draft in self.nexuses),
        )

    def feed(self, line: str) -> None:
        """Take one indented line of this target's block."""
        text = line.strip()
        if line.startswith("    ") and not line.startswith("     ") and text.endswith(":"):
            self.section = text[:-1]
            return
        if self.section == "System information":
            key, _sep, value = text.partition(": ")
            self.attrs[key] = value
        elif self.section == "LUN information":
            self._feed_lun(text)
        elif self.section == "I_T nexus information":
            self._feed_nexus(text)
        elif self.section == "Account information":
            if text.endswith(_OUTGOING):
                self.outgoing = text[: -len(_OUTGOING)]
            else:
                self.incoming.append(text)
        elif self.section == "ACL information":
            self.acl.append(text)

    def _feed_lun(self, text: str) -> None:
        """A `LUN: n` header or one `Key: value` attribute of the current LUN."""
        if text.startswith("LUN: "):
            self.luns.append(_LunDraft(int(text[5:])))
        elif self.luns:
            key, _sep, value = text.partition(":")
            self.luns[-1].attrs[key] = value.strip()

    def _feed_nexus(self, text: str) -> None:
        """Nexus header, initiator, connection and address lines."""
        if text.startswith("I_T nexus: "):
            self.nexuses.append(_NexusDraft(int(text[len("I_T nexus: ") :])))
            return
        if not self.nexuses:
            return
        nexus = self.nexuses[-1]
        if text.startswith("Initiator: "):
            # IQNs contain no spaces, so the first " alias: " ends the name.
            name, _sep, alias = text[len("Initiator: ") :].partition(" alias: ")
            nexus.initiator, nexus.alias = name, "" if alias in ("", "none") else alias
        elif text.startswith("Connection: "):
            nexus.cid = int(text[len("Connection: ") :])
        elif text.startswith("IP Address: ") and nexus.cid is not None:
            nexus.connections.append(TgtConnection(nexus.cid, text[len("IP Address: ") :]))


def parse_targets(text: str) -> list[TgtTarget]:
    """Targets from `tgtadm --lld iscsi --mode target --op show`."""
    drafts: list[_TargetDraft] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        header = _TARGET.match(line)
        if header:
            drafts.append(_TargetDraft(int(header.group(1)), header.group(2)))
        elif drafts and line.startswith(" "):
            drafts[-1].feed(line)
    return [draft.build() for draft in drafts]


def parse_accounts(text: str) -> list[str]:
    """Account user names from `tgtadm --lld iscsi --mode account --op show`."""
    names: list[str] = []
    for line in text.splitlines():
        if line.startswith(" ") and line.strip():
            names.append(line.strip())
    return names


def parse_portals(text: str) -> list[tuple[str, int]]:
    """(address, port) pairs from `tgtadm --lld iscsi --mode portal --op show`; IPv6 unbracketed."""
    portals: list[tuple[str, int]] = []
    for line in text.splitlines():
        match = _PORTAL.match(line.strip())
        if match:
            portals.append((match.group(1).strip("[]"), int(match.group(2))))
    return portals


def parse_system_state(text: str) -> str:
    """The `State:` value of `tgtadm --mode system --op show` (`ready`, `offline`, or '')."""
    for line in text.splitlines():
        key, _sep, value = line.strip().partition(": ")
        if key == "State":
            return value.strip()
    return ""


def sessions(targets: Iterable[TgtTarget]) -> list[Session]:
    """Connected initiators, one entry per connection, from the targets' I_T nexuses."""
    found: list[Session] = []
    for target in targets:
        for nexus in target.nexuses:
            conns = [(c.address, c.cid) for c in nexus.connections] or [("", 0)]
            found.extend(
                Session(
                    target=target.name,
                    initiator=nexus.initiator,
                    address=address,
                    session_id=nexus.nexus_id,
                    connection_id=cid,
                    alias=nexus.alias,
                )
                for address, cid in conns
            )
    return found

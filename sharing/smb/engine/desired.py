"""The desired SMB server as plain frozen specs, checked on creation (no Django).

Django code builds these from the SMB tables; the engine renders them to smb.conf, checks the
result with testparm before it replaces the running one, and reloads smbd.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sharing.accounts.engine.desired import Accounts

__all__ = ["SHARE_NAME_RULE", "SmbError", "SmbGlobals", "SmbShareSpec", "SmbState"]

# Windows share names: up to 80 characters, none of \ / [ ] : | < > + = ; , * ? " and no
# control characters; "global", "homes" and "printers" are smb.conf section names.
_SHARE = re.compile(r'^[^\\/\[\]:|<>+=;,*?"\x00-\x1f]{1,80}$')
SHARE_NAME_RULE = 'up to 80 characters, none of \\ / [ ] : | < > + = ; , * ? "'
_RESERVED = {"global", "homes", "printers", "print$", "ipc$"}
# NetBIOS names: 1-15 characters; a workgroup the same.
_NETBIOS = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,14}$")
_PLAIN = re.compile(r"^[^\n\r\\]*$")
# smb.conf substitutions: % followed by a letter, or %$(ENVVAR); there is no escape for them.
_MACRO = re.compile(r"%[A-Za-z$]")
# An address, a network or an interface name (eth0, br-lan, 192.168.1.10, 10.0.0.0/24, ::1).
_BIND = re.compile(r"^[A-Za-z0-9.:/_-]+$")


class SmbError(ValueError):
    """An SMB spec that smb.conf cannot express safely."""


def _plain(value: str, what: str) -> None:
    """Free text goes into smb.conf lines: no line breaks, no continuation backslashes."""
    if not _PLAIN.match(value) or not value.isprintable():
        raise SmbError(f"{what} must be one printable line without '\\'")
    _no_macro(value, what)


def _no_macro(value: str, what: str) -> None:
    """smbd expands %U, %H, %$(VAR)... in paths and comments (per user): refuse them."""
    if _MACRO.search(value):
        raise SmbError(f"{what} must not contain Samba substitutions such as %U ('%' + a letter)")


@dataclass(frozen=True)
class SmbGlobals:
    """Server-wide settings: names, where it listens; SMB2 is the floor, SMB1 never."""

    netbios_name: str = "NASUI"
    workgroup: str = "WORKGROUP"
    description: str = "nasui"
    # Addresses or interface names to bind; empty: every interface.
    bind: tuple[str, ...] = ()
    port: int = 445

    def __post_init__(self) -> None:
        for value, what in ((self.netbios_name, "NetBIOS name"), (self.workgroup, "workgroup")):
            if not _NETBIOS.match(value):
                raise SmbError(f"{what} {value!r}: 1-15 of A-Z a-z 0-9 _ -, starting alphanumeric")
        _plain(self.description, "the description")
        for item in self.bind:
            if not _BIND.match(item):
                raise SmbError(f"bind {item!r}: one address or interface name per entry")
        if not 1 <= self.port <= 65535:
            raise SmbError(f"port {self.port} is outside 1-65535")


@dataclass(frozen=True)
class SmbShareSpec:
    """One share of a dataset's directory, and who may use it how.

    `users` and `groups` empty: every local user with a password. Guests (no password) only
    where `guest_ok`. `shadow_copy` shows ZFS snapshots as Windows "Previous versions";
    `time_machine` (implies the macOS `fruit` module) offers the share as a Time Machine
    target of at most `time_machine_limit` bytes.
    """

    name: str
    path: str
    comment: str = ""
    read_only: bool = False
    browseable: bool = True
    guest_ok: bool = False
    users: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    shadow_copy: bool = False
    fruit: bool = False
    time_machine: bool = False
    time_machine_limit: int | None = None
    audit: bool = False

    def __post_init__(self) -> None:
        if not _SHARE.match(self.name) or self.name.lower() in _RESERVED:
            raise SmbError(f"share name {self.name!r}: {SHARE_NAME_RULE}, not a reserved name")
        if self.name != self.name.strip():
            raise SmbError(f"share name {self.name!r} must not start or end with a space")
        _no_macro(self.name, f"share name {self.name!r}")
        if not self.path.startswith("/"):
            raise SmbError(f"share {self.name}: the path {self.path!r} must be absolute")
        _plain(self.path, f"share {self.name}: the path")
        if self.path != self.path.strip():
            raise SmbError(f"share {self.name}: the path must not start or end with a space")
        _plain(self.comment, f"share {self.name}: the comment")
        if self.time_machine_limit is not None and not self.time_machine:
            raise SmbError(f"share {self.name}: a Time Machine limit needs Time Machine on")
        if self.time_machine_limit is not None and self.time_machine_limit <= 0:
            raise SmbError(f"share {self.name}: the Time Machine limit must be positive")

    @property
    def uses_fruit(self) -> bool:
        """Whether the macOS module is loaded (Time Machine needs it)."""
        return self.fruit or self.time_machine


@dataclass(frozen=True)
class SmbState:
    """Everything the SMB server should be: settings, shares, and the accounts it admits."""

    globals: SmbGlobals = field(default_factory=SmbGlobals)
    shares: tuple[SmbShareSpec, ...] = ()
    accounts: Accounts = field(default_factory=Accounts)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shares", tuple(sorted(self.shares, key=lambda s: s.name.lower())))
        names = [s.name.lower() for s in self.shares]
        if len(names) != len(set(names)):
            raise SmbError("share names must be unique (Windows ignores case)")
        users = {u.name for u in self.accounts.users}
        groups = {g.name for g in self.accounts.groups}
        for share in self.shares:
            stray = sorted(set(share.users) - users) + sorted(set(share.groups) - groups)
            if stray:
                raise SmbError(f"share {share.name}: no user or group named {', '.join(stray)}")

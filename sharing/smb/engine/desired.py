"""The desired SMB server as plain frozen specs, checked on creation (no Django).

Django code builds these from the SMB tables; the engine renders them to smb.conf, checks the
result with testparm before it replaces the running one, and reloads smbd.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sharing.accounts.engine.desired import Accounts, invisible_character

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
    """An SMB spec that smb.conf cannot express safely; `field` names the setting at fault
    ("name", "path", "comment"...), so that a form can show it there."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


def _visible(value: str, what: str, field: str) -> None:
    """Names and text that reach smb.conf hold no invisible character (controls, bidi marks)."""
    hidden = invisible_character(value)
    if hidden:
        raise SmbError(f"{what} may not contain the invisible character {hidden}", field=field)


def _plain(value: str, what: str, field: str) -> None:
    """Free text goes into smb.conf lines: no line breaks, no continuation backslashes."""
    _visible(value, what, field)
    if not _PLAIN.fullmatch(value) or not value.isprintable():
        raise SmbError(f"{what} must be one printable line without '\\'", field=field)
    _no_macro(value, what, field)


def _no_macro(value: str, what: str, field: str) -> None:
    """smbd expands %U, %H, %$(VAR)... in paths and comments (per user): refuse them."""
    if _MACRO.search(value):
        raise SmbError(
            f"{what} must not contain Samba substitutions such as %U ('%' + a letter)",
            field=field,
        )


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
        names = (
            (self.netbios_name, "NetBIOS name", "netbios_name"),
            (self.workgroup, "workgroup", "workgroup"),
        )
        for value, what, name in names:
            if not _NETBIOS.fullmatch(value):
                raise SmbError(
                    f"{what} {value!r}: 1-15 of A-Z a-z 0-9 _ -, starting alphanumeric", field=name
                )
        _plain(self.description, "the description", "description")
        for item in self.bind:
            if not _BIND.fullmatch(item):
                raise SmbError(f"bind {item!r}: one address or interface name per entry", "bind")
        if not 1 <= self.port <= 65535:
            raise SmbError(f"port {self.port} is outside 1-65535", field="port")


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
        self._check_name()
        if not self.path.startswith("/"):
            raise SmbError(f"share {self.name}: the path {self.path!r} must be absolute", "path")
        _plain(self.path, f"share {self.name}: the path", "path")
        if self.path != self.path.strip():
            raise SmbError(
                f"share {self.name}: the path must not start or end with a space", "path"
            )
        _plain(self.comment, f"share {self.name}: the comment", "comment")
        limit = "time_machine_limit"
        if self.time_machine_limit is not None and not self.time_machine:
            raise SmbError(f"share {self.name}: a Time Machine limit needs Time Machine on", limit)
        if self.time_machine_limit is not None and self.time_machine_limit <= 0:
            raise SmbError(f"share {self.name}: the Time Machine limit must be positive", limit)

    def _check_name(self) -> None:
        """A share name smb.conf carries as a section name, and Windows shows."""
        what = f"share name {self.name!r}"
        _visible(self.name, what, "name")
        if not _SHARE.fullmatch(self.name):
            raise SmbError(f"{what}: {SHARE_NAME_RULE}", field="name")
        if self.name.lower() in _RESERVED:
            raise SmbError(f"{what} is reserved: {', '.join(sorted(_RESERVED))}", field="name")
        if self.name != self.name.strip():
            raise SmbError(f"{what} must not start or end with a space", field="name")
        _no_macro(self.name, what, "name")

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

"""The local accounts the file servers admit, as plain frozen specs checked on creation.

Django code builds these from the users and groups tables; an accounts engine makes them real
(system files on the appliance, nss_wrapper files on build machines), and the SMB engine
gives each user with a password hash its Samba passdb entry.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

__all__ = [
    "NAME_RULE",
    "AccountError",
    "Accounts",
    "GroupSpec",
    "UserSpec",
    "check_name",
    "invisible_character",
]

# POSIX portable user names as useradd accepts them by default (Debian's NAME_REGEX).
_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
NAME_RULE = "1-32 of a-z 0-9 _ -, starting with a letter or _"
_NT_HASH = re.compile(r"^[0-9A-F]{32}$")
# Ids of local accounts made by the panel: Debian's UID_MIN..UID_MAX, so never a system account.
ID_MIN, ID_MAX = 1000, 59999
# Characters that show nothing or change how the rest reads, in names and comments that reach
# the servers' files (passwd, smb.conf): controls (Cc: tab, newline, DEL, NEL), formats (Cf:
# the byte order mark, zero-width and bidirectional marks such as U+202E), and the line and
# paragraph separators (Zl U+2028, Zp U+2029).
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


class AccountError(ValueError):
    """A user or group spec that no accounts engine may apply."""


def invisible_character(text: str) -> str | None:
    """The first invisible character of `text` as its code point (`U+202E`), or None."""
    for ch in text:
        if unicodedata.category(ch) in INVISIBLE_CATEGORIES:
            return f"U+{ord(ch):04X}"
    return None


def check_name(name: str, what: str) -> str:
    """A user or group name under the portable rule, or AccountError."""
    if not _NAME.fullmatch(name):
        raise AccountError(f"{what} {name!r}: use {NAME_RULE}")
    return name


def _check_id(value: int, what: str) -> None:
    if not ID_MIN <= value <= ID_MAX:
        raise AccountError(f"{what} {value} is outside {ID_MIN}-{ID_MAX}")


@dataclass(frozen=True)
class GroupSpec:
    """A local group: its name, gid and the users listed as extra members."""

    name: str
    gid: int
    members: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_name(self.name, "group")
        _check_id(self.gid, f"group {self.name}: gid")
        for member in self.members:
            check_name(member, f"group {self.name}: member")


@dataclass(frozen=True)
class UserSpec:
    """A local user: name, uid, primary group, full name, home, and its SMB password hash.

    `nt_hash` is the NT hash Samba's own tools made when the password was set (upper-case
    hex); None means the user cannot log in over SMB. A disabled user keeps its hash.
    """

    name: str
    uid: int
    group: str
    full_name: str = ""
    home: str = "/nonexistent"
    disabled: bool = False
    nt_hash: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        check_name(self.name, "user")
        _check_id(self.uid, f"user {self.name}: uid")
        check_name(self.group, f"user {self.name}: primary group")
        hidden = invisible_character(self.full_name)
        if hidden:
            raise AccountError(
                f"user {self.name}: the full name may not contain the invisible character {hidden}"
            )
        if ":" in self.full_name or not self.full_name.isprintable():
            raise AccountError(f"user {self.name}: the full name must be printable, without ':'")
        if not self.home.startswith("/") or any(ch in self.home for ch in ":\n"):
            raise AccountError(f"user {self.name}: the home must be an absolute path")
        if self.nt_hash is not None and not _NT_HASH.fullmatch(self.nt_hash):
            raise AccountError(f"user {self.name}: an NT hash is 32 upper-case hex digits")


@dataclass(frozen=True)
class Accounts:
    """Every local user and group; names and ids unique, primary groups known."""

    users: tuple[UserSpec, ...] = ()
    groups: tuple[GroupSpec, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "users", tuple(sorted(self.users, key=lambda u: u.name)))
        object.__setattr__(self, "groups", tuple(sorted(self.groups, key=lambda g: g.name)))
        _unique([u.name for u in self.users], "user name")
        _unique([u.uid for u in self.users], "uid")
        _unique([g.name for g in self.groups], "group name")
        _unique([g.gid for g in self.groups], "gid")
        known = {g.name for g in self.groups}
        users = {u.name for u in self.users}
        for user in self.users:
            if user.group not in known:
                raise AccountError(f"user {user.name}: no group named {user.group!r}")
        for group in self.groups:
            stray = sorted(set(group.members) - users)
            if stray:
                raise AccountError(f"group {group.name}: no user named {', '.join(stray)}")

    def gid_of(self, group: str) -> int:
        """The gid of a group by name."""
        return next(g.gid for g in self.groups if g.name == group)


def _unique(values: list[object], what: str) -> None:
    seen: set[object] = set()
    for value in values:
        if value in seen:
            raise AccountError(f"{what} {value} is used twice")
        seen.add(value)

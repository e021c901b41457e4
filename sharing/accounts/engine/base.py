"""What every accounts engine offers: make the desired users and groups real."""

from __future__ import annotations

from typing import Protocol

from sharing.accounts.engine.desired import AccountError, Accounts

# Accounts every engine provides besides the panel's own: smbd runs as root and maps
# guests to nobody (group nogroup). A panel user or group may not take these names.
RESERVED_NAMES = frozenset({"root", "nobody", "nogroup"})
# Names the panel refuses for its own accounts besides those: the users (and their groups)
# Debian's base-passwd puts on every system, and the groups that hold system powers. On the
# appliance each exists already, so an account of that name could only fail when applied.
_BASE_PASSWD_USERS = {"daemon", "bin", "sys", "sync", "games", "man", "lp", "mail", "news"}
_BASE_PASSWD_USERS |= {"uucp", "proxy", "www-data", "backup", "list", "irc", "gnats", "_apt"}
_POWER_GROUPS = {"adm", "disk", "kmem", "shadow", "sudo", "tty", "utmp", "operator"}
SYSTEM_NAMES = RESERVED_NAMES | _BASE_PASSWD_USERS | _POWER_GROUPS


class AccountsEngine(Protocol):
    """Makes `Accounts` real: nss_wrapper files on build machines, /etc/passwd on the appliance."""

    name: str

    def apply(self, accounts: Accounts) -> bool:
        """Add, change and remove accounts to match; return whether anything changed."""
        ...


def check_reserved(accounts: Accounts) -> None:
    """Refuse panel accounts named like the fixed ones (root, nobody, nogroup)."""
    names = [u.name for u in accounts.users] + [g.name for g in accounts.groups]
    taken = sorted(RESERVED_NAMES.intersection(names))
    if taken:
        raise AccountError(f"{', '.join(taken)}: reserved for the system, choose another name")

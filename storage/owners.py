"""Who may own a file system's folder: a registry of user and group names that apps fill.

Storage knows uids and gids only; the accounts live in the sharing app, which storage must not
import. Sharing registers a lister at start-up (like the usage registry's holder checkers), and
root is always there, so a fresh panel can still give a folder back to root.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

ROOT = "root"


@dataclass(frozen=True)
class Accounts:
    """Name -> id of the users and of the groups a folder may be given to."""

    users: Mapping[str, int] = field(default_factory=dict)
    groups: Mapping[str, int] = field(default_factory=dict)


AccountLister = Callable[[], Accounts]
_listers: dict[str, AccountLister] = {}


def register_account_lister(key: str, lister: AccountLister) -> None:
    """Add (or replace, under the same key) a source of accounts; apps call this from `ready()`."""
    _listers[key] = lister


def unregister_account_lister(key: str) -> None:
    """Drop a source (tests that register their own)."""
    _listers.pop(key, None)


def accounts() -> Accounts:
    """root plus every registered user and group, each kind sorted by name after root."""
    users: dict[str, int] = {}
    groups: dict[str, int] = {}
    for lister in _listers.values():
        found = lister()
        users.update(found.users)
        groups.update(found.groups)
    return Accounts(users=_with_root(users), groups=_with_root(groups))


def _with_root(ids: Mapping[str, int]) -> dict[str, int]:
    """root first and always 0, whatever a lister says, then the others by name."""
    return {ROOT: 0, **{name: ids[name] for name in sorted(ids) if name != ROOT}}


def name_of(ids: Mapping[str, int], number: int) -> str | None:
    """The name registered for a uid or gid, None when no account has it."""
    return next((name for name, value in ids.items() if value == number), None)

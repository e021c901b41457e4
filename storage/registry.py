"""What storage learns from the apps above it at start-up, without ever importing them.

Two registries, as TrueNAS's attachment delegates do: who holds a dataset or zvol (a destroy
or export is refused while any checker names a holder, and a grown zvol is announced to its
listeners), and who may own a file system's folder (storage knows uids and gids only; the
accounts live in the sharing app, and root is always there, so a fresh panel can still give a
folder back to root).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from nasui.validation import refusal

ROOT = "root"


@dataclass(frozen=True)
class Holder:
    """Something that serves a dataset or zvol: "iSCSI extent ext16k", "SMB share media"."""

    kind: str
    name: str

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


# (zfs_name, include_children) -> the holders of that dataset or zvol (and of its children).
HolderChecker = Callable[[str, bool], Iterable[Holder]]

_checkers: dict[str, HolderChecker] = {}


def register_holder_checker(key: str, checker: HolderChecker) -> None:
    """Add (or replace, under the same key) a checker; apps call this from `ready()`."""
    _checkers[key] = checker


def unregister_holder_checker(key: str) -> None:
    """Drop a checker (tests that register their own)."""
    _checkers.pop(key, None)


def holders_of(name: str, *, include_children: bool = False) -> list[Holder]:
    """Everything that serves `name` (and, with include_children, anything below it)."""
    return [holder for checker in _checkers.values() for holder in checker(name, include_children)]


# zvol name -> None; called after the zvol grew, so whoever serves it can show the new size.
ResizeListener = Callable[[str], None]
_resize_listeners: dict[str, ResizeListener] = {}


def register_resize_listener(key: str, listener: ResizeListener) -> None:
    """Be told when a zvol grew (an iSCSI LUN must announce its new capacity)."""
    _resize_listeners[key] = listener


def zvol_grew(name: str) -> None:
    """Tell every listener that `name` grew; storage calls this after a successful grow."""
    for listener in _resize_listeners.values():
        listener(name)


def in_use_message(holders: Iterable[Holder]) -> str:
    """ "In use by iSCSI extent a, b: remove it first." — one phrase per kind of holder."""
    by_kind: dict[str, list[str]] = {}
    for holder in holders:
        by_kind.setdefault(holder.kind, []).append(holder.name)
    phrases = [f"{kind} {', '.join(names)}" for kind, names in by_kind.items()]
    count = sum(len(names) for names in by_kind.values())
    return f"In use by {'; '.join(phrases)}: remove {'it' if count == 1 else 'them'} first."


def refuse_if_held(name: str, *, prefix: bool = False) -> None:
    """Whatever serves a dataset or zvol (an iSCSI extent, a share) must not lose it.

    `prefix`: the datasets and zvols inside `name` count too (destroying a pool or a tree).
    """
    holders = holders_of(name, include_children=prefix)
    if holders:
        raise refusal(in_use_message(holders))


# -- owners of folders ------------------------------------------------------------------------


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


# (encryption root, locked) -> None; called before a lock (locked=True: stop serving what is
# under it) and after an unlock or a failed lock (locked=False: serve it again).
KeyListener = Callable[[str, bool], None]
_key_listeners: dict[str, KeyListener] = {}


def register_key_listener(key: str, listener: KeyListener) -> None:
    """Be told when an encryption root is about to lock or has unlocked (shares, extents)."""
    _key_listeners[key] = listener


def keys_changing(name: str, *, locked: bool) -> None:
    """Tell every listener that `name` (and what inherits its key) locks or unlocked."""
    for listener in _key_listeners.values():
        listener(name, locked)

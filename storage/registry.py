"""Who holds a dataset or zvol: a registry storage owns and the sharing apps fill at start-up.

Storage never imports the apps that use its objects; each registers a checker instead (as
TrueNAS's attachment delegates do), and a destroy or export is refused while any checker
names a holder.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


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

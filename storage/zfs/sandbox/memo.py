"""Dataset listings kept per version of the state file: the same file gives the same figures.

A version is a digest of the state file's bytes (reading and hashing it costs a few hundredths
of what computing the figures does), so a listing is computed again only after a write changed
the state. The web answers list requests from here (bench/api_load.py: the sandbox's figures
were half of a dataset list request's CPU). Per process; the worker and the web keep their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from storage.zfs.base import Dataset
from storage.zfs.sandbox.state import StateStore

Version = bytes


class ListingMemo:
    """The last listing of each kind, with the state version it came from."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, ...], tuple[Version, tuple[Dataset, ...]]] = {}
        self._lock = threading.Lock()

    def listing(
        self, store: StateStore, what: tuple[str, ...], compute: Callable[[], list[Dataset]]
    ) -> list[Dataset]:
        """compute()'s result (a listing named by `what`) for the state as it is now, computed
        once per version."""
        # Taken before computing: what is computed is this version or a later one, so a
        # listing is never kept under a version newer than its own.
        version = store.version()
        key = (str(store.path), *what)
        with self._lock:
            kept = self._kept.get(key)
        if version is not None and kept is not None and kept[0] == version:
            return list(kept[1])
        found = compute()
        if version is not None:
            with self._lock:
                self._kept[key] = (version, tuple(found))
        return found


LISTINGS = ListingMemo()

"""The sandbox's state file: JSON, written atomically, guarded by a file lock across processes."""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nasui.lib.files import write_atomic
from nasui.lib.locks import file_lock

FORMAT = 1
State = dict[str, Any]


def empty_state() -> State:
    """A state with no pools."""
    return {"format": FORMAT, "pools": {}}


class StateStore:
    """Reads and read-modify-writes `root/state.json` under fcntl.flock on `root/state.lock`.

    The web process and the Celery worker share the file: writers hold an exclusive lock for the
    whole read-modify-write, readers a shared one, and the file is replaced atomically so a
    reader never sees half a file. Do not nest calls: a second lock on a new descriptor would
    wait for the first one, even in the same process.
    """

    def __init__(self, root: Path) -> None:
        self.path = root / "state.json"
        self._lock_path = root / "state.lock"
        root.mkdir(parents=True, exist_ok=True)

    def version(self) -> bytes | None:
        """A digest of the state file as it is now (None before the first write): equal digests,
        equal states. No lock: a write replaces the whole file at once."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        return hashlib.blake2b(data, digest_size=16).digest()

    def _load(self) -> State:
        try:
            data: State = json.loads(self.path.read_text())
        except FileNotFoundError:
            return empty_state()
        return data

    def read(self) -> State:
        """A snapshot of the state (the figures of the last scan included)."""
        with file_lock(self._lock_path, shared=True):
            return self._load()

    @contextlib.contextmanager
    def reading(self) -> Iterator[State]:
        """The state, its shared lock held until the block ends: files it names stay put
        (a writer waits), e.g. while a send links a snapshot's copy aside."""
        with file_lock(self._lock_path, shared=True):
            yield self._load()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[State]:
        """Yield the state for changes; it is saved when the block ends without an exception."""
        with file_lock(self._lock_path):
            state = self._load()
            yield state
            self._write(state)

    def _write(self, state: State) -> None:
        """Replace the file whole: a reader never sees half of it."""
        write_atomic(self.path, json.dumps(state, separators=(",", ":"), sort_keys=True))

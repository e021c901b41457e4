"""Encryption key operations of the sandbox engine (a mixin of SandboxZfsEngine)."""

from __future__ import annotations

from storage.zfs.errors import DatasetBusy
from storage.zfs.sandbox import busy, crypt
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.tree import PoolTree


class KeyOps:
    """load-key, unload-key and change-key, with ZFS's rules and words (sandbox/crypt.py)."""

    _state: StateStore

    def _find(self, state: State, name: str) -> tuple[PoolTree, str]:
        raise NotImplementedError  # provided by DatasetOps

    def load_key(
        self, name: str, key: str | None = None, *, recursive: bool = False, typed: bool = False
    ) -> None:
        """Load the key of NAME (and, recursive, of every locked root under it); `typed` is
        -L prompt: `key` whatever the root's keylocation."""
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            if not recursive:
                crypt.load(tree, rel, key, typed=typed)
                return
            for root in _roots(tree, rel):
                if not crypt.loaded(tree, root):
                    crypt.load(tree, root, key, typed=typed)

    def unload_key(self, name: str, *, recursive: bool = False) -> None:
        """Unload the key of NAME (recursive: of every loaded root under it); busy if open."""
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            holders = busy.open_files_under(tree.data_path(rel).parent)
            if holders:
                raise DatasetBusy(
                    f"cannot unmount '{name}': pool or dataset is busy ({busy.describe(holders)})"
                )
            if not recursive:
                crypt.unload(tree, rel)
                return
            for root in _roots(tree, rel):
                if crypt.loaded(tree, root):
                    crypt.unload(tree, root)

    def change_key(
        self,
        name: str,
        *,
        key_format: str | None = None,
        key_location: str | None = None,
        key: str | None = None,
    ) -> None:
        """A new key (format, location) for a loaded root; a child's makes it a root."""
        with self._state.transaction() as state:
            tree, rel = self._find(state, name)
            crypt.change(tree, rel, key_format, key_location, key)


def _roots(tree: PoolTree, rel: str) -> list[str]:
    """The encryption roots at and under `rel`, parents first."""
    return [r for r in [rel, *tree.descendants(rel)] if crypt.root_of(tree, r) == r]

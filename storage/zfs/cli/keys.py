"""Encryption key commands of the `cli` engine (a mixin of CliZfsEngine).

A passphrase or hex key always goes to `zfs` on its standard input (keylocation=prompt), never
in its arguments, where `ps` and the panel's job records would show it.
"""

from __future__ import annotations

from collections.abc import Sequence

from storage.zfs.argv import property_args
from storage.zfs.errors import ZfsError
from storage.zfs.names import check_dataset_name
from storage.zfs.parse.lists import split_rows
from storage.zfs.runner import CommandResult

_MOUNT_COLUMNS = ("name", "type", "canmount", "mounted", "keystatus")
# What `zfs unmount` says of a file system not mounted and of a zvol: nothing to unmount.
_NOT_MOUNTED = ("not currently mounted", "not applicable to datasets of this type")


class KeyCommands:
    """Load, unload and change the keys of encrypted datasets and zvols, through `zfs`."""

    def run(
        self, argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None
    ) -> CommandResult:
        raise NotImplementedError  # provided by the engine

    def _out(self, *argv: str, timeout: float | None = None) -> str:
        raise NotImplementedError  # provided by the engine

    def load_key(
        self,
        name: str,
        key: str | None = None,
        *,
        recursive: bool = False,
        typed: bool = False,
    ) -> None:
        """`zfs load-key [-r] [-L prompt] NAME`, then mount what the key opened.

        `key` is the passphrase or hex key of a root whose keylocation is prompt, or of any
        root when `typed` (-L prompt: a key brought from elsewhere, not its key file); None
        reads each root's own keylocation. WrongKey, KeyAlreadyLoaded name the refusal.
        """
        check_dataset_name(name)
        argv = [
            "zfs",
            "load-key",
            *(["-r"] if recursive else []),
            *(["-L", "prompt"] if typed else []),
        ]
        self.run([*argv, name], stdin=key_input(key))
        self.mount_tree(name)

    def unload_key(self, name: str, *, recursive: bool = False) -> None:
        """Unmount NAME's file systems, then `zfs unload-key [-r] NAME` (DatasetBusy if in use)."""
        check_dataset_name(name)
        self._unmount(name)
        self.run(["zfs", "unload-key", *(["-r"] if recursive else []), name])

    def change_key(
        self,
        name: str,
        *,
        key_format: str | None = None,
        key_location: str | None = None,
        key: str | None = None,
    ) -> None:
        """`zfs change-key [-o keyformat=F] [-o keylocation=L] NAME`, the new key on stdin."""
        check_dataset_name(name)
        options = {"keyformat": key_format, "keylocation": key_location}
        chosen = {k: v for k, v in options.items() if v is not None}
        argv = ["zfs", "change-key", *property_args("-o", chosen), name]
        self.run(argv, stdin=key_input(key))

    def mount_tree(self, name: str) -> None:
        """Mount every file system under NAME that should be and can be (parents first)."""
        # Both types: `-t filesystem` of a zvol's name is an error, not an empty list.
        columns = ",".join(_MOUNT_COLUMNS)
        argv = ["zfs", "list", "-H", "-o", columns, "-t", "filesystem,volume", "-r", name]
        for row in split_rows(self._out(*argv), _MOUNT_COLUMNS):
            opened = row["keystatus"] != "unavailable"
            mountable = row["type"] == "filesystem" and row["canmount"] == "on"
            if mountable and row["mounted"] == "no" and opened:
                self.run(["zfs", "mount", row["name"]])

    def _unmount(self, name: str) -> None:
        """`zfs unmount NAME` (its descendants too); a zvol or an unmounted one is left as is."""
        try:
            self.run(["zfs", "unmount", name])
        except ZfsError as exc:
            if not any(words in exc.stderr for words in _NOT_MOUNTED):
                raise


def key_input(key: str | None) -> str | None:
    """The key as zfs reads it from a pipe (one line); None: nothing on stdin."""
    return None if key is None else key + "\n"

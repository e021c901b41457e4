"""Generated keys on the appliance's data partition: one file per encryption root.

ZFS reads a key file named by the root's keylocation (file:///...), so a root whose key is here
unlocks at boot with no one typing anything. That protects the disks (sold, sent back, stolen
without the stick), not a whole box taken away with its stick. The files are the panel's
secrets: the folder is private to the panel, each file readable by it alone, and the config
backup (encrypted with the user's passphrase) carries them.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

FOLDER = "keys"
SUFFIX = ".key"
EXPORTED = "exported.json"  # the key files already exported at least once (their names)
KEY_BYTES = 32  # ZFS's wrapping key: 32 bytes, 64 hex digits in keyformat=hex


class KeyStoreError(Exception):
    """A key file could not be written or read."""


def folder(data_dir: Path) -> Path:
    """The private folder of the key files."""
    return data_dir / FOLDER


def new_key() -> str:
    """A fresh random wrapping key in ZFS's hex format."""
    return secrets.token_hex(KEY_BYTES)


def write(data_dir: Path, key: str) -> Path:
    """A new key file holding `key` (mode 0600, in a 0700 folder); its path."""
    place = folder(data_dir)
    place.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(place, 0o700)
    path = place / f"{secrets.token_hex(8)}{SUFFIX}"
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(key + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise KeyStoreError(f"cannot write a key file in {place}: {exc.strerror}") from exc
    return path


def location(path: Path) -> str:
    """The keylocation ZFS reads `path` from."""
    return f"file://{path}"


def path_of(key_location: str, data_dir: Path) -> Path | None:
    """The key file behind a keylocation, when it is one of this store's (else None)."""
    if not key_location.startswith("file://"):
        return None
    path = Path(key_location.removeprefix("file://"))
    return path if path.parent == folder(data_dir) and path.suffix == SUFFIX else None


def read(path: Path) -> str:
    """The hex key in a key file."""
    try:
        return path.read_text().strip()
    except OSError as exc:
        raise KeyStoreError(f"cannot read the key file {path}: {exc.strerror}") from exc


def exported(data_dir: Path) -> set[str]:
    """The names of the key files a key file download has held."""
    try:
        names = json.loads((folder(data_dir) / EXPORTED).read_text())
    except (OSError, ValueError):
        return set()
    return {str(name) for name in names} if isinstance(names, list) else set()


def mark_exported(data_dir: Path, paths: Iterable[Path]) -> None:
    """Remember that these key files have been exported (the warning about them goes)."""
    names = sorted(exported(data_dir) | {path.name for path in paths})
    place = folder(data_dir)
    place.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = place / f".{EXPORTED}.tmp"
    partial.write_text(json.dumps(names))
    partial.replace(place / EXPORTED)


def remove(path: Path | None) -> None:
    """Forget a key file (a create that failed, a root destroyed or given a passphrase)."""
    if path is not None:
        path.unlink(missing_ok=True)

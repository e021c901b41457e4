"""What the panel reads of encryption: the roots, their keys' state and where each key is."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from storage.encryption.engine import keystore
from storage.engine import get_engine
from storage.zfs.base import Dataset

# Roots this thread is locking: from the moment the servers are told until the key is gone,
# what is under them is offered to no share, so the servers let go before ZFS unmounts.
_closing = threading.local()


@contextlib.contextmanager
def closing(name: str) -> Iterator[None]:
    """While the block runs, `name` and everything under it count as locked."""
    names: set[str] = _closing.__dict__.setdefault("names", set())
    names.add(name)
    try:
        yield
    finally:
        names.discard(name)


def is_closed(dataset: Dataset) -> bool:
    """Locked, or under a root being locked: nothing may serve it."""
    names: set[str] = _closing.__dict__.get("names", set())
    return dataset.locked or any(
        dataset.name == root or dataset.name.startswith(f"{root}/") for root in names
    )


def data_dir() -> Path:
    """Where the key files live (keys/ under the panel's data directory)."""
    return Path(settings.DATA_DIR)


@dataclass(frozen=True)
class KeyRoot:
    """An encryption root: the dataset or zvol whose key opens it and what inherits it."""

    dataset: Dataset
    key_file: Path | None  # the panel's key file (unlocks at boot); None: a typed passphrase

    @property
    def name(self) -> str:
        """The root's full name."""
        return self.dataset.name

    @property
    def unlocks_at_boot(self) -> bool:
        """True when its key is on the data partition, so no one has to type it."""
        return self.key_file is not None


def key_root(dataset: Dataset) -> KeyRoot:
    """The KeyRoot of an encryption root's Dataset."""
    return KeyRoot(dataset, keystore.path_of(dataset.key_location, data_dir()))


def key_roots(datasets: list[Dataset] | None = None) -> list[KeyRoot]:
    """Every encryption root (of `datasets`, else of every imported pool), by name."""
    listed = get_engine().list_all_datasets() if datasets is None else datasets
    return [key_root(d) for d in listed if d.is_encryption_root]


def waiting_for_passphrase(datasets: list[Dataset] | None = None) -> list[KeyRoot]:
    """Locked roots that only a typed passphrase opens: what the boot alert names."""
    return [r for r in key_roots(datasets) if r.dataset.locked and not r.unlocks_at_boot]


def unexported(datasets: list[Dataset] | None = None) -> list[KeyRoot]:
    """Roots whose kept key no key file download has held yet: lose the stick, lose the data."""
    done = keystore.exported(data_dir())
    return [
        root
        for root in key_roots(datasets)
        if root.key_file is not None and root.key_file.name not in done
    ]

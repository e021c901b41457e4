"""The config archive: the files that rebuild a box, in one tar sealed with a passphrase.

Its format is nasui.lib.sealed's (scrypt, X25519, HKDF, AES-256-GCM from `cryptography`) under
the magic line b"NASUI-CONFIG\\n": the header, readable without the passphrase, names the
release and host that made it and is sealed with the contents.
"""

from __future__ import annotations

from collections.abc import Mapping

from nasui.lib.sealed import (
    MIN_PASSPHRASE,
    SCRYPT,
    About,
    ArchiveError,
    Contents,
    Damaged,
    Kind,
    NotAnArchive,
    Recipient,
    TooNew,
    Truncated,
    WrongPassphrase,
    open_sealed,
    recipient,
)
from nasui.lib.sealed import peek as peek_sealed
from nasui.lib.sealed import seal as seal_sealed

__all__ = [
    "FORMAT", "MAGIC", "MIN_PASSPHRASE", "PREFIX", "SCRYPT", "About", "ArchiveError", "Contents",
    "Damaged", "NotAnArchive", "Recipient", "TooNew", "Truncated", "WrongPassphrase",
    "open_archive", "peek", "recipient", "seal",
]  # fmt: skip

CONFIG = Kind(
    magic=b"NASUI-CONFIG\n",
    format=1,
    info=b"nasui config archive v1",
    noun="archive",
    title="nasui config archive",
)
FORMAT = CONFIG.format
MAGIC = CONFIG.preamble
PREFIX = len(CONFIG.magic)  # the magic without the format's byte


def seal(members: Mapping[str, bytes], to: Recipient, about: About) -> bytes:
    """The archive of `members` (name -> bytes), sealed for the recipient."""
    return seal_sealed(members, to, about, CONFIG)


def peek(blob: bytes) -> About:
    """Who made the archive, without the passphrase; ArchiveError if it is none we can open."""
    return peek_sealed(blob, CONFIG)


def open_archive(blob: bytes, passphrase: str) -> Contents:
    """The members of the archive, or WrongPassphrase, Damaged, Truncated, TooNew..."""
    return open_sealed(blob, passphrase, CONFIG)

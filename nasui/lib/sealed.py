"""A sealed tar: files in one blob that only a passphrase opens (config archives, key files).

On disk, in this order:

    magic                      the kind's magic line (b"NASUI-CONFIG\n"...) and its format's
                               number (one byte)
    header length              4 bytes, big-endian
    header                     JSON: who made it (nasui version, host, time), the key
                               derivation's parameters and salt, the recipient's and the
                               blob's own public keys, the nonce, the sealed part's length
    sealed tar                 AES-256-GCM over an uncompressed tar of the members; the magic
                               and the header are its associated data, so neither can be changed
                               unnoticed

The passphrase is never stored. Through scrypt (with a salt) it gives an X25519 key pair: the
*recipient*. A blob is sealed for the recipient's public key (ECIES: a key pair of the blob's
own, X25519 agreement, HKDF, AES-GCM), so a panel can seal copies while keeping only the
public key and the salt; only the passphrase opens them. A wrong passphrase gives another
public key than the header names: it is told apart from a damaged blob before anything is
decrypted, and a truncated file from both (the header names the sealed part's length). The
header can be read without the passphrase: the panel shows which version made it, and refuses
one of a newer format, before asking for it. Each kind has its own magic and HKDF info, so a
blob of one kind never opens as another.
"""

from __future__ import annotations

import base64
import io
import json
import os
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

# scrypt's cost: 2**15 * 8 * 128 bytes = 32 MiB of memory and ~0.1 s here (seconds on an
# emulated CPU): slow enough to make guessing costly, small enough for a home box.
SCRYPT = {"n": 2**15, "r": 8, "p": 1}
MAX_HEADER = 64 * 1024
MIN_PASSPHRASE = 8


@dataclass(frozen=True)
class Kind:
    """What a sealed blob is: its magic line, format, HKDF info, and the words that name it."""

    magic: bytes  # without the format's byte
    format: int
    info: bytes
    noun: str  # "archive": "The archive is cut short"
    title: str  # "nasui config archive": "This is not a nasui config archive."

    @property
    def preamble(self) -> bytes:
        """The magic with the format's byte."""
        return self.magic + bytes([self.format])


class ArchiveError(Exception):
    """An archive that cannot be made or opened; the message says why, in words."""


class NotAnArchive(ArchiveError):
    """Not a nasui config archive at all."""


class Truncated(ArchiveError):
    """Shorter than its header says: a download or a copy cut short."""


class TooNew(ArchiveError):
    """Made by a later format than this panel reads."""


class WrongPassphrase(ArchiveError):
    """The passphrase does not open this archive."""


class Damaged(ArchiveError):
    """The right passphrase, but the sealed part was changed or corrupted."""


@dataclass(frozen=True)
class About:
    """What an archive says of itself, readable without the passphrase."""

    version: str  # the nasui version that made it
    host: str
    made: str  # ISO 8601, UTC


@dataclass(frozen=True)
class Contents:
    """An opened archive: who made it, and its members by name."""

    about: About
    members: dict[str, bytes]


@dataclass(frozen=True)
class Recipient:
    """What a passphrase gives that may be kept: the salt, scrypt's cost, the public key."""

    salt: bytes
    public: bytes
    n: int = SCRYPT["n"]
    r: int = SCRYPT["r"]
    p: int = SCRYPT["p"]


def recipient(passphrase: str, salt: bytes | None = None) -> Recipient:
    """The recipient a passphrase stands for (a new salt unless one is given)."""
    if len(passphrase) < MIN_PASSPHRASE:
        raise ArchiveError(f"Use a passphrase of at least {MIN_PASSPHRASE} characters.")
    salt = os.urandom(16) if salt is None else salt
    return Recipient(salt, _public(_private(passphrase, salt, SCRYPT)))


def seal(members: Mapping[str, bytes], to: Recipient, about: About, kind: Kind) -> bytes:
    """A blob of `kind` holding `members` (name -> bytes), sealed for the recipient."""
    plain = _tar(members)
    own, nonce = X25519PrivateKey.generate(), os.urandom(12)
    key = _cipher_key(own.exchange(X25519PublicKey.from_public_bytes(to.public)),
                      _public(own), to.public, kind)  # fmt: skip
    header = {
        "format": kind.format,
        "version": about.version,
        "host": about.host,
        "made": about.made,
        "kdf": {"name": "scrypt", "n": to.n, "r": to.r, "p": to.p, "salt": _b64(to.salt)},
        "recipient": _b64(to.public),
        "ephemeral": _b64(_public(own)),
        "nonce": _b64(nonce),
        "length": len(plain) + 16,  # the GCM tag
    }
    head = json.dumps(header, sort_keys=True).encode()
    preamble = kind.preamble + len(head).to_bytes(4, "big") + head
    return preamble + AESGCM(key).encrypt(nonce, plain, preamble)


def peek(blob: bytes, kind: Kind) -> About:
    """Who made the blob, without the passphrase; ArchiveError if it is none we can open."""
    header, _, _ = _split(blob, kind)
    return _about(header)


def open_sealed(blob: bytes, passphrase: str, kind: Kind) -> Contents:
    """The members of the blob, or WrongPassphrase, Damaged, Truncated, TooNew..."""
    header, preamble, sealed = _split(blob, kind)
    noun = kind.noun
    try:
        kdf = header["kdf"]
        params = {"n": int(kdf["n"]), "r": int(kdf["r"]), "p": int(kdf["p"])}
        salt, nonce = _unb64(kdf["salt"]), _unb64(header["nonce"])
        named, theirs = _unb64(header["recipient"]), _unb64(header["ephemeral"])
        ephemeral = X25519PublicKey.from_public_bytes(theirs)
    except (KeyError, TypeError, ValueError) as error:
        raise Damaged(f"The {noun}'s header is damaged.") from error
    if kdf.get("name") != "scrypt" or params["n"] > 2**20 or params["r"] * params["p"] > 64:
        raise Damaged(f"The {noun}'s header names a key derivation this panel does not use.")
    private = _private(passphrase, salt, params)
    if _public(private) != named:
        raise WrongPassphrase(f"Wrong passphrase for this {noun}.")
    key = _cipher_key(private.exchange(ephemeral), theirs, named, kind)
    try:
        plain = AESGCM(key).decrypt(nonce, sealed, preamble)
    except InvalidTag as error:
        raise Damaged(f"The {noun} is damaged: its contents do not match its seal.") from error
    return Contents(_about(header), _untar(plain, noun))


def _split(blob: bytes, kind: Kind) -> tuple[dict[str, Any], bytes, bytes]:
    """(header, the bytes it seals with, the sealed part), checking the framing."""
    noun = kind.noun
    start = _framing(blob, kind)
    size = int.from_bytes(blob[start - 4 : start], "big")
    if size > MAX_HEADER:
        raise Damaged(f"The {noun}'s header is damaged.")
    if len(blob) < start + size:
        raise Truncated(f"The {noun} is cut short: its header is incomplete.")
    try:
        header = json.loads(blob[start : start + size])
        length = int(header["length"])
    except (ValueError, KeyError, TypeError) as error:
        raise Damaged(f"The {noun}'s header is damaged.") from error
    sealed = blob[start + size :]
    if len(sealed) < length:
        raise Truncated(f"The {noun} is cut short: {len(sealed)} of {length} bytes are there.")
    if len(sealed) > length:
        raise Damaged(f"The {noun} has bytes after its end.")
    return header, blob[: start + size], sealed


def _framing(blob: bytes, kind: Kind) -> int:
    """Where the header starts, once the magic, the format and the length are there."""
    prefix = len(kind.magic)
    if blob and len(blob) < prefix and kind.magic.startswith(blob):
        raise Truncated(f"The {kind.noun} is cut short: its header is missing.")
    if blob[:prefix] != kind.magic:
        raise NotAnArchive(f"This is not a {kind.title}.")
    if len(blob) < prefix + 1 + 4:
        raise Truncated(f"The {kind.noun} is cut short: its header is missing.")
    if blob[prefix] > kind.format:
        raise TooNew(f"This {kind.noun} was made by a newer nasui: update this box first.")
    return prefix + 1 + 4


def _about(header: Mapping[str, object]) -> About:
    return About(str(header.get("version", "")), str(header.get("host", "")),
                 str(header.get("made", "")))  # fmt: skip


def _private(passphrase: str, salt: bytes, params: Mapping[str, int]) -> X25519PrivateKey:
    """The recipient's private key: scrypt of the passphrase, as an X25519 key."""
    secret = Scrypt(salt=salt, length=32, **params).derive(passphrase.encode())
    return X25519PrivateKey.from_private_bytes(secret)


def _public(private: X25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _cipher_key(shared: bytes, ephemeral: bytes, recipient_public: bytes, kind: Kind) -> bytes:
    """AES-256's key from the agreement, bound to both public keys and to the kind."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=ephemeral + recipient_public,
                info=kind.info).derive(shared)  # fmt: skip


def _tar(members: Mapping[str, bytes]) -> bytes:
    """An uncompressed tar of the members, in name order, with no owner or time of this box."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(members):
            _check_name(name)
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(members[name]), 0o600
            tar.addfile(info, io.BytesIO(members[name]))
    return out.getvalue()


def _untar(plain: bytes, noun: str) -> dict[str, bytes]:
    """The regular files of the tar by name; anything else (links, devices, odd names) is
    refused: only this module writes these tars, and one that is not its own is damaged."""
    members: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(plain), mode="r:") as tar:
        for info in tar:
            _check_name(info.name)
            handle = tar.extractfile(info) if info.isreg() else None
            if handle is None:
                raise Damaged(f"The {noun} holds {info.name!r}, which is not a plain file.")
            members[info.name] = handle.read()
    return members


def _check_name(name: str) -> None:
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ArchiveError(f"{name!r} is not a member name a sealed file may hold.")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(text: object) -> bytes:
    return base64.b64decode(str(text), validate=True)

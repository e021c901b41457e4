"""Native encryption's rules in the sandbox: who is an encryption root, whose key opens what.

The sandbox keeps no data encrypted (its files are the panel's test data); it keeps what ZFS
would decide: the cipher, the root each dataset takes its key from, whether that key is loaded,
and a salted PBKDF2 digest that tells a right key from a wrong one. The checks and their words
are libzfs's (lib/libzfs/libzfs_crypto.c), as the VM lane saw them (tests/vm/test_encryption.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from storage.zfs.errors import (
    InvalidProperty,
    KeyAlreadyLoaded,
    KeyNotLoaded,
    NotAnEncryptionRoot,
    WrongKey,
    ZfsError,
)
from storage.zfs.sandbox.tree import PoolTree

PROPERTIES = ("encryption", "keyformat", "keylocation")
CIPHERS = ("aes-128-ccm", "aes-192-ccm", "aes-256-ccm", "aes-128-gcm", "aes-192-gcm",
           "aes-256-gcm")  # fmt: skip
DEFAULT_CIPHER = "aes-256-gcm"  # encryption=on
FORMATS = ("passphrase", "hex", "raw")
PASSPHRASE_LENGTHS = (8, 512)
WRAPPING_KEY_BYTES = 32
_ITERATIONS = 1000  # enough to be a real derivation; nothing here protects real data


def split(given: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(encryption properties, the others) of a `zfs create -o` set."""
    crypt = {k: str(v) for k, v in given.items() if k in PROPERTIES}
    return crypt, {k: v for k, v in given.items() if k not in PROPERTIES}


def root_of(tree: PoolTree, rel: str) -> str | None:
    """The rel name of the encryption root `rel` takes its key from (None: not encrypted)."""
    current: str | None = rel
    while current is not None:
        crypt = tree.datasets[current].get("crypt")
        if crypt is None:
            return None
        if crypt.get("root"):
            return current
        current = tree.parent(current)
    return None


def new_record(
    tree: PoolTree, parent: str, wanted: dict[str, str], key: str | None, name: str
) -> dict[str, Any] | None:
    """The crypt record of a new dataset under `parent` (None: not encrypted), or the refusal."""
    parent_root = root_of(tree, parent)
    cipher = _cipher(wanted.get("encryption"), name)
    if cipher is None:
        cipher = tree.datasets[parent_root]["crypt"]["cipher"] if parent_root is not None else "off"
    if cipher == "off":  # OpenZFS 2.x lets a child of an encrypted parent opt out
        if set(wanted) - {"encryption"}:
            raise InvalidProperty(_create_error(
                name, "Encryption must be turned on to set encryption properties."))  # fmt: skip
        return None
    inherits = "keyformat" not in wanted  # the parent's key, unless a root is asked for
    if inherits and (parent_root is None or "keylocation" in wanted):
        raise InvalidProperty(_create_error(
            name, "Keyformat required for new encryption root."))  # fmt: skip
    if parent_root is not None and not loaded(tree, parent_root):
        raise KeyNotLoaded(_create_error(name, "Parent's key is not loaded."))
    if inherits:
        return {"root": False, "cipher": cipher}
    key_format = _format(wanted["keyformat"], name)
    location = wanted.get("keylocation", "prompt")
    material = _material(location, key, key_format, lambda why: _create_error(name, why))
    return {"root": True, "cipher": cipher, "format": key_format, "location": location,
            **_digest(material), "loaded": True}  # fmt: skip


def raw_record(tree: PoolTree, rel: str) -> dict[str, str] | None:
    """What a raw stream of `rel` carries of its encryption (None: not encrypted)."""
    root = root_of(tree, rel)
    if root is None:
        return None
    keys = tree.datasets[root]["crypt"]
    return {name: keys[name] for name in ("cipher", "format", "salt", "digest")}


def received(sealed: dict[str, str]) -> dict[str, Any]:
    """The crypt record of a copy received raw: its own root, its key not loaded."""
    return {"root": True, **sealed, "location": "prompt", "loaded": False}


def loaded(tree: PoolTree, root: str) -> bool:
    """Whether the encryption root's key is loaded."""
    return bool(tree.datasets[root]["crypt"].get("loaded"))


def load(tree: PoolTree, rel: str, key: str | None, *, typed: bool = False) -> None:
    """`zfs load-key [-L prompt]` of one encryption root."""
    crypt = _root_crypt(tree, rel, "Key load error", "loaded")
    if crypt["loaded"]:
        raise KeyAlreadyLoaded(
            f"Key load error: Key already loaded for '{tree.full_name(rel)}'."
        )  # fmt: skip
    location = "prompt" if typed else crypt["location"]
    material = _material(location, key, crypt["format"], _load_error)
    expected = _digest(material, bytes.fromhex(crypt["salt"]))["digest"]
    if not hmac.compare_digest(expected, crypt["digest"]):
        raise WrongKey(f"Key load error: Incorrect key provided for '{tree.full_name(rel)}'.")
    crypt["loaded"] = True


def unload(tree: PoolTree, rel: str) -> None:
    """`zfs unload-key` of one encryption root."""
    crypt = _root_crypt(tree, rel, "Key unload error", "unloaded")
    if not crypt["loaded"]:
        raise KeyNotLoaded(
            f"Key unload error: Key already unloaded for '{tree.full_name(rel)}'."
        )  # fmt: skip
    crypt["loaded"] = False


def change(
    tree: PoolTree, rel: str, key_format: str | None, location: str | None, key: str | None
) -> None:
    """`zfs change-key`: a new wrapping key (and format or location) for a loaded root."""
    name = tree.full_name(rel)
    root = root_of(tree, rel)
    if root is None:
        raise NotAnEncryptionRoot(f"Key change error: '{name}' is not encrypted.")
    if not loaded(tree, root):
        raise KeyNotLoaded(f"Key change error: Key must be loaded for '{name}'.")
    crypt: dict[str, Any] = tree.datasets[rel]["crypt"]
    if root != rel:  # a child's change-key makes it a root of its own, with its own key
        inherited = tree.datasets[root]["crypt"]
        crypt.update(root=True, format=inherited["format"], location="prompt", loaded=True)
    new_format = _format(key_format, name) if key_format else crypt["format"]
    new_location = location or crypt["location"]
    material = _material(new_location, key, new_format, lambda why: f"Key change error: {why}")
    crypt.update(format=new_format, location=new_location, **_digest(material), loaded=True)


def _root_crypt(tree: PoolTree, rel: str, error: str, done: str) -> dict[str, Any]:
    """The crypt record of `rel`, refused unless it is an encryption root."""
    name = tree.full_name(rel)
    root = root_of(tree, rel)
    if root is None:
        raise NotAnEncryptionRoot(f"{error}: '{name}' is not encrypted.")
    if root != rel:
        raise NotAnEncryptionRoot(
            f"{error}: Keys must be {done} for encryption root of '{name}' "
            f"({tree.full_name(root)})."
        )
    crypt: dict[str, Any] = tree.datasets[rel]["crypt"]
    return crypt


def _cipher(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    lowered = value.lower()
    if lowered == "on":
        return DEFAULT_CIPHER
    if lowered != "off" and lowered not in CIPHERS:
        raise InvalidProperty(f"cannot create '{name}': 'encryption' must be one of "
                              f"'on | off | {' | '.join(CIPHERS)}'")  # fmt: skip
    return lowered


def _format(value: str, name: str) -> str:
    if value.lower() not in FORMATS:
        raise InvalidProperty(f"cannot create '{name}': 'keyformat' must be one of "
                              "'none | raw | hex | passphrase'")  # fmt: skip
    return value.lower()


def _material(location: str, key: str | None, key_format: str, error: Any) -> bytes:
    """The key material at `location` (prompt: `key`), checked as libzfs's validate_key."""
    if location == "prompt":
        text = key
    elif location.startswith("file://"):
        try:
            text = Path(location[len("file://") :]).read_text().splitlines()[0]
        except (OSError, IndexError):
            raise ZfsError(error("Failed to open key material file")) from None
    else:
        raise InvalidProperty(error("Invalid keylocation"))
    if text is None:
        raise ZfsError(error("Failed to read key material (no key on standard input)"))
    _validate(text, key_format, error)
    return text.encode()


def _validate(text: str, key_format: str, error: Any) -> None:
    if key_format == "passphrase":
        low, high = PASSPHRASE_LENGTHS
        if len(text) > high:
            raise InvalidProperty(error(f"Passphrase too long (max {high})."))
        if len(text) < low:
            raise InvalidProperty(error(f"Passphrase too short (min {low})."))
    elif key_format == "hex":
        wanted = WRAPPING_KEY_BYTES * 2
        if len(text) != wanted:
            word = "short" if len(text) < wanted else "long"
            raise InvalidProperty(error(f"Hex key too {word} (expected {wanted})."))
        if any(c not in string.hexdigits for c in text):
            raise InvalidProperty(error("Invalid hex character detected."))
    elif len(text.encode()) != WRAPPING_KEY_BYTES:
        raise InvalidProperty(error(f"Raw key has the wrong length (expected "
                                    f"{WRAPPING_KEY_BYTES})."))  # fmt: skip


def _digest(material: bytes, salt: bytes | None = None) -> dict[str, str]:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", material, salt, _ITERATIONS)
    return {"salt": salt.hex(), "digest": digest.hex()}


def _create_error(name: str, why: str) -> str:
    return f"cannot create '{name}': {why}"


def _load_error(why: str) -> str:
    return f"Key load error: {why}"

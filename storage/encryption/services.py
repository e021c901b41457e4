"""Encryption writes: a new root's key, lock, unlock and a change of key.

A passphrase goes to ZFS on its standard input and is never stored, logged or sent back; a
generated key is written to the data partition (storage.encryption.engine.keystore) and the
root unlocks at boot from it. Every refusal names the field and the rule.
"""

from __future__ import annotations

import contextlib
import functools
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from nasui.validation import fail
from storage import registry
from storage.encryption import selectors
from storage.encryption.engine import keyfile, keystore
from storage.engine import get_engine
from storage.errors import engine_call
from storage.zfs.base import Dataset

T = TypeVar("T")
ENCRYPTION_CHOICES = ("inherit", "off", "passphrase", "key")
PASSPHRASE_LENGTHS = (8, 512)  # OpenZFS's bounds (libzfs_crypto.c)


@dataclass(frozen=True)
class NewKey:
    """How a new dataset or zvol is encrypted: its properties and the key ZFS reads."""

    properties: dict[str, str] = field(default_factory=dict)
    passphrase: str | None = None  # on zfs's stdin (keylocation=prompt)
    key_file: Path | None = None  # a generated key (keylocation=file://...)

    def __repr__(self) -> str:  # never the passphrase, in a log or a traceback
        return f"NewKey(properties={self.properties!r}, key_file={self.key_file!r})"


def new_key(
    parent: Dataset, encryption: str, passphrase: str = "", passphrase_confirm: str = ""
) -> NewKey:
    """The encryption a new child of `parent` gets; "inherit" follows the parent."""
    if encryption not in ENCRYPTION_CHOICES:
        raise fail("encryption", f"Choose one of: {', '.join(ENCRYPTION_CHOICES)}.")
    if encryption == "inherit":
        return NewKey()
    if encryption == "off":
        if parent.encrypted:
            raise fail(
                "encryption",
                f"{parent.name} is encrypted: ZFS keeps everything under it encrypted. "
                "Create it under an unencrypted dataset instead.",
            )
        return NewKey()
    if parent.locked:
        raise fail("parent", f"{parent.name} is locked: unlock it first.")
    if encryption == "passphrase":
        checked = validate_passphrase(passphrase, passphrase_confirm)
        root = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}
        return NewKey(root, passphrase=checked)
    path = _stored(keystore.new_key())
    root = {"encryption": "on", "keyformat": "hex", "keylocation": keystore.location(path)}
    return NewKey(root, key_file=path)


def create_with(key: NewKey, create: Callable[[dict[str, str], str | None], T]) -> T:
    """Run `create(properties, passphrase)`; a generated key's file goes if it fails."""
    try:
        return create(key.properties, key.passphrase)
    except BaseException:
        keystore.remove(key.key_file)
        raise


def validate_passphrase(passphrase: str, confirm: str, field_name: str = "passphrase") -> str:
    """A passphrase ZFS accepts, typed the same twice."""
    low, high = PASSPHRASE_LENGTHS
    if len(passphrase) < low:
        raise fail(field_name, f"At least {low} characters (ZFS's minimum).")
    if len(passphrase) > high:
        raise fail(field_name, f"At most {high} characters (ZFS's maximum).")
    if "\n" in passphrase or "\r" in passphrase:
        raise fail(field_name, "One line: no line breaks.")
    if passphrase != confirm:
        raise fail(f"{field_name}_confirm", "The two passphrases differ: type the same twice.")
    return passphrase


def _root(name: str) -> Dataset:
    """The encryption root `name`, or the refusal that names the root to use instead."""
    dataset = engine_call(lambda: get_engine().get_dataset(name), "name")
    if not dataset.encrypted:
        raise fail("name", f"{name} is not encrypted.")
    if not dataset.is_encryption_root:
        raise fail(
            "name",
            f"{name} inherits its key from {dataset.encryption_root}: lock, unlock or change "
            f"the key there.",
        )
    return dataset


def lock(*, name: str) -> Dataset:
    """Unmount and unload the key of an encryption root and everything that inherits it."""
    root = _root(name)
    if root.locked:
        raise fail("name", f"{name} is locked already.")
    try:
        with selectors.closing(name):  # the servers let go of it first
            registry.keys_changing(name, locked=True)
            engine_call(lambda: get_engine().unload_key(name, recursive=True))
    except ValidationError:
        registry.keys_changing(name, locked=False)  # still open: serve it again
        raise
    return engine_call(lambda: get_engine().get_dataset(name))


def unlock(*, name: str, passphrase: str = "") -> Dataset:
    """Load the root's key (the typed passphrase, or its key file) and mount what it opens."""
    root = _root(name)
    if not root.locked:
        raise fail("name", f"{name} is unlocked already.")
    typed = root.key_format == "passphrase" and root.key_location == "prompt"
    if typed and not passphrase:
        raise fail("passphrase", "Type the passphrase that unlocks it.")
    engine_call(lambda: get_engine().load_key(name, passphrase if typed else None, recursive=True))
    registry.keys_changing(name, locked=False)
    return engine_call(lambda: get_engine().get_dataset(name))


def change_key(
    name: str, *, method: str, passphrase: str = "", passphrase_confirm: str = ""
) -> Dataset:
    """A new passphrase, or a new generated key kept on the appliance; the data stays."""
    root = _root(name)
    if root.locked:
        raise fail("name", f"{name} is locked: unlock it before changing its key.")
    old_file = selectors.key_root(root).key_file
    if method == "passphrase":
        typed = validate_passphrase(passphrase, passphrase_confirm)
        engine_call(
            lambda: get_engine().change_key(
                name, key_format="passphrase", key_location="prompt", key=typed
            )
        )
    elif method == "key":
        _keep_key(name, keystore.new_key())
    else:
        raise fail("method", "Choose passphrase or key.")
    with contextlib.suppress(OSError):  # the old key opens nothing now
        keystore.remove(old_file)
    return engine_call(lambda: get_engine().get_dataset(name))


def _keep_key(name: str, key: str) -> Path:
    """Make `key` the root's key, kept in a new key file (gone again if ZFS refuses)."""
    path = _stored(key)
    new = {"key_format": "hex", "key_location": keystore.location(path)}
    try:
        engine_call(lambda: get_engine().change_key(name, **new))
    except ValidationError:
        keystore.remove(path)
        raise
    return path


def _stored(key: str) -> Path:
    """A generated key written to the data partition, or the refusal saying why not."""
    try:
        return keystore.write(selectors.data_dir(), key)
    except keystore.KeyStoreError as exc:
        raise fail("encryption", f"The key could not be kept on the appliance: {exc}") from exc


@dataclass(frozen=True)
class BootUnlock:
    """What the boot's unlock did: roots opened from their key files, roots that wait for a
    passphrase, and roots whose key file failed (name -> why)."""

    unlocked: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def unlock_at_boot() -> BootUnlock:
    """Load the keys the appliance keeps (parents first) and mount what they open. One root's
    missing or wrong key file does not keep the others locked."""
    report = BootUnlock()
    for root in selectors.key_roots():
        if not root.dataset.locked:
            continue
        if not root.unlocks_at_boot:
            report.waiting.append(root.name)
            continue
        try:
            engine_call(functools.partial(get_engine().load_key, root.name))
        except ValidationError as exc:
            report.failed[root.name] = " ".join(exc.messages)
            continue
        report.unlocked.append(root.name)
    return report


@dataclass(frozen=True)
class KeyDownload:
    """A key file to download: its name, its bytes, the roots it holds and those it cannot."""

    filename: str
    content: bytes
    roots: list[str]
    passphrase_roots: list[str]  # opened by a typed passphrase: nothing to export


def keys_export(*, passphrase: str, passphrase_confirm: str) -> KeyDownload:
    """Every kept key, sealed with a passphrase typed twice (never stored)."""
    typed = validate_passphrase(passphrase, passphrase_confirm)
    roots = engine_call(selectors.key_roots)
    kept = {r.name: r.key_file for r in roots if r.key_file is not None}
    if not kept:
        raise fail("passphrase", "No encryption root here has a key kept on the appliance.")
    try:
        keys = {name: keystore.read(path) for name, path in kept.items()}
    except keystore.KeyStoreError as exc:
        raise fail("passphrase", f"A key file cannot be read: {exc}") from exc
    now = datetime.now(UTC)
    about = keyfile.About(settings.NASUI_VERSION, socket.gethostname(), now.isoformat())
    content = keyfile.export(keys, typed, about)
    keystore.mark_exported(selectors.data_dir(), kept.values())
    return KeyDownload(
        filename=f"nasui-keys-{socket.gethostname()}-{now:%Y%m%d-%H%M%S}.nasui-keys",
        content=content,
        roots=sorted(kept),
        passphrase_roots=sorted(r.name for r in roots if r.key_file is None),
    )


@dataclass(frozen=True)
class KeyImport:
    """What an import did: roots given their key, roots not here, roots the key did not open."""

    imported: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)


MAX_KEY_FILE = 1 << 20  # a key file of thousands of roots is still a few hundred KiB


def key_file_bytes(upload: UploadedFile) -> bytes:
    """An uploaded key file's bytes, or a refusal on `file` when it is far too big for one."""
    if upload.size is not None and upload.size > MAX_KEY_FILE:
        raise fail("file", f"A key file is at most {MAX_KEY_FILE >> 20} MiB: this is not one.")
    return bytes(upload.read())


def keys_import(*, content: bytes, passphrase: str) -> KeyImport:
    """Keep the keys of a key file for the roots of this box's pools that they open, and
    unlock those roots: pools brought from another appliance, or a data partition lost."""
    try:
        keys = keyfile.read(content, passphrase)
    except keyfile.ArchiveError as exc:
        field_name = "passphrase" if isinstance(exc, keyfile.WrongPassphrase) else "file"
        raise fail(field_name, str(exc)) from exc
    here = {r.name: r for r in engine_call(selectors.key_roots)}
    report = KeyImport()
    for name, key in sorted(keys.items()):
        root = here.get(name)
        if root is None or root.dataset.key_format != "hex":
            report.absent.append(name)
            continue
        try:
            _take_key(root, key)
        except ValidationError as exc:
            report.refused[name] = " ".join(exc.messages)
            continue
        report.imported.append(name)
    return report


def _take_key(root: selectors.KeyRoot, key: str) -> None:
    """Open `root` with `key` and keep the key as its key file from now on."""
    name = root.name
    if root.dataset.locked:
        engine_call(lambda: get_engine().load_key(name, key, typed=True))
        registry.keys_changing(name, locked=False)
    path = _keep_key(name, key)
    if root.key_file is not None and root.key_file != path:
        keystore.remove(root.key_file)
    keystore.mark_exported(selectors.data_dir(), [path])  # it came from a key file

"""Sandbox encryption: the flows and refusals of OpenZFS (tests/vm/test_encryption.py)."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout
from storage.zfs.errors import (
    DatasetBusy,
    InvalidProperty,
    KeyAlreadyLoaded,
    KeyNotLoaded,
    NotAnEncryptionRoot,
    WrongKey,
)
from storage.zfs.sandbox import SandboxZfsEngine

GIB = 1024**3
PASSPHRASE = "correct horse battery"
ROOT = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}
VAULT = "tank/vault"


@pytest.fixture
def engine(tmp_path: Path) -> SandboxZfsEngine:
    sandbox = SandboxZfsEngine(root=tmp_path / "sbx", disk_count=2, disk_size=2 * GIB)
    disk = sandbox.list_disks()[0].path
    sandbox.create_pool("tank", PoolLayout("stripe", ((disk,),)))
    sandbox.create_dataset(VAULT, properties=ROOT, key=PASSPHRASE)
    sandbox.create_dataset(f"{VAULT}/child")
    return sandbox


def test_a_passphrase_root_and_its_child_show_their_key_and_root(
    engine: SandboxZfsEngine,
) -> None:
    root, child = engine.get_dataset(VAULT), engine.get_dataset(f"{VAULT}/child")
    assert (root.encryption, root.encryption_root, root.key_status) == (
        "aes-256-gcm",
        VAULT,
        "available",
    )
    assert (root.key_format, root.key_location, root.is_encryption_root) == (
        "passphrase",
        "prompt",
        True,
    )
    assert (child.encryption_root, child.key_format, child.is_encryption_root) == (
        VAULT,
        "passphrase",
        False,
    )
    assert child.key_location == ""
    plain = engine.get_dataset("tank")
    assert (plain.encrypted, plain.encryption_root, plain.key_status) == (False, "", "")
    listed = {d.name: d for d in engine.list_datasets("tank")}
    assert listed[f"{VAULT}/child"].encryption_root == VAULT


def test_lock_and_only_the_right_passphrase_unlocks(engine: SandboxZfsEngine) -> None:
    engine.unload_key(VAULT, recursive=True)
    assert engine.get_dataset(VAULT).locked
    assert engine.get_dataset(f"{VAULT}/child").locked
    with pytest.raises(WrongKey, match="Incorrect key provided for 'tank/vault'"):
        engine.load_key(VAULT, "not the passphrase")
    assert engine.get_dataset(VAULT).locked
    with pytest.raises(KeyNotLoaded, match="Key already unloaded"):
        engine.unload_key(VAULT)
    engine.load_key(VAULT, PASSPHRASE, recursive=True)
    assert not engine.get_dataset(f"{VAULT}/child").locked
    with pytest.raises(KeyAlreadyLoaded, match="Key already loaded for 'tank/vault'"):
        engine.load_key(VAULT, PASSPHRASE)
    with pytest.raises(NotAnEncryptionRoot, match=r"unloaded for encryption root of 'tank/va"):
        engine.unload_key(f"{VAULT}/child")
    with pytest.raises(NotAnEncryptionRoot, match="'tank' is not encrypted"):
        engine.load_key("tank", PASSPHRASE)


def test_a_file_held_open_keeps_the_dataset_unlocked(engine: SandboxZfsEngine) -> None:
    note = Path(engine.get_dataset(f"{VAULT}/child").mountpoint or "") / "note.txt"
    note.write_text("kept under lock\n")
    with open(note):
        with pytest.raises(DatasetBusy):
            engine.unload_key(VAULT, recursive=True)
        assert not engine.get_dataset(VAULT).locked


def test_create_refusals_name_the_rule(engine: SandboxZfsEngine) -> None:
    with pytest.raises(InvalidProperty, match=r"Passphrase too short \(min 8\)"):
        engine.create_dataset("tank/short", properties=ROOT, key="seven77")
    engine.create_dataset(f"{VAULT}/plain", properties={"encryption": "off"})  # as OpenZFS 2.x
    assert not engine.get_dataset(f"{VAULT}/plain").encrypted
    engine.destroy_dataset(f"{VAULT}/plain")
    with pytest.raises(InvalidProperty, match="Encryption must be turned on"):
        engine.create_dataset("tank/half", properties={"encryption": "off", "keyformat": "hex"})
    with pytest.raises(InvalidProperty, match="Keyformat required for new encryption root"):
        engine.create_dataset("tank/noformat", properties={"encryption": "on"})
    engine.unload_key(VAULT, recursive=True)
    with pytest.raises(KeyNotLoaded):
        engine.create_dataset(f"{VAULT}/late")
    names = {d.name for d in engine.list_datasets("tank")}
    assert not {"tank/short", "tank/half", "tank/noformat", f"{VAULT}/late"} & names


def test_a_hex_key_file_unlocks_a_zvol_and_a_changed_passphrase_replaces_the_old(
    engine: SandboxZfsEngine, tmp_path: Path
) -> None:
    key_file = tmp_path / "vol.key"
    key_file.write_text(secrets.token_hex(32) + "\n")
    hexed = {"encryption": "on", "keyformat": "hex", "keylocation": f"file://{key_file}"}
    engine.create_zvol("tank/keyvol", size=16 << 20, sparse=True, properties=hexed)
    engine.unload_key("tank/keyvol")
    assert engine.get_dataset("tank/keyvol").locked
    engine.load_key("tank/keyvol")
    assert engine.get_dataset("tank/keyvol").key_location == f"file://{key_file}"
    key_file.write_text(secrets.token_hex(32) + "\n")
    engine.unload_key("tank/keyvol")
    with pytest.raises(WrongKey):
        engine.load_key("tank/keyvol")

    engine.change_key(VAULT, key="a new passphrase here")
    engine.unload_key(VAULT, recursive=True)
    with pytest.raises(WrongKey):
        engine.load_key(VAULT, PASSPHRASE)
    engine.load_key(VAULT, "a new passphrase here", recursive=True)
    assert not engine.get_dataset(f"{VAULT}/child").locked

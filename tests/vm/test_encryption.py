"""Encryption on real OpenZFS through the cli engine: create, lock, unlock, change the key.

tests/zfs/test_sandbox_encryption.py runs the same flows on the sandbox engine; the refusals'
words seen here are kept in the run's out directory (encryption_messages.json) for it.
"""

from __future__ import annotations

import json
import secrets
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from vmhelpers import OUT

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import (
    DatasetBusy,
    KeyAlreadyLoaded,
    KeyNotLoaded,
    NotAnEncryptionRoot,
    WrongKey,
    ZfsError,
)

POOL = "cryptpool"
PASSPHRASE = "correct horse battery"
MESSAGES: dict[str, str] = {}
ROOT = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}


@pytest.fixture(scope="module")
def pool(module_pool: Callable[..., str], all_disks: list[str]) -> Iterator[str]:
    """One disk for the module's datasets; the refusals' words are saved at the end."""
    yield module_pool(POOL, PoolLayout.single("stripe", all_disks[6:7]))
    if OUT.is_dir():
        (OUT / "encryption_messages.json").write_text(json.dumps(MESSAGES, indent=2))


@pytest.fixture
def vault(pool: str, engine: CliZfsEngine, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh passphrase encryption root with an inheriting child holding a file."""
    name = f"{pool}/{request.node.name.replace('test_', '')[:30]}"
    engine.create_dataset(name, properties=ROOT, key=PASSPHRASE)
    engine.create_dataset(f"{name}/child")
    Path(f"/{name}/child/note.txt").write_text("kept under lock\n")
    yield name
    if engine.get_dataset(name).locked:
        engine.load_key(name, PASSPHRASE)
    engine.destroy_dataset(name, recursive=True, force=True)


def refused(label: str, error: type[ZfsError], call: Callable[[], object]) -> ZfsError:
    """Run `call`, expecting `error`; keep its words under `label`."""
    with pytest.raises(error) as caught:
        call()
    MESSAGES[label] = caught.value.stderr.strip()
    return caught.value


def test_a_passphrase_root_and_its_child_show_their_key_and_root(
    engine: CliZfsEngine, vault: str
) -> None:
    root, child = engine.get_dataset(vault), engine.get_dataset(f"{vault}/child")
    assert (root.encryption, root.encryption_root, root.key_status) == (
        "aes-256-gcm",
        vault,
        "available",
    )
    assert (root.key_format, root.key_location, root.is_encryption_root) == (
        "passphrase",
        "prompt",
        True,
    )
    assert (child.encryption_root, child.key_format, child.is_encryption_root) == (
        vault,
        "passphrase",
        False,
    )
    assert child.key_location == ""
    plain = engine.get_dataset(POOL)
    assert (plain.encrypted, plain.encryption_root, plain.key_status) == (False, "", "")


def test_lock_hides_the_files_and_only_the_right_passphrase_brings_them_back(
    engine: CliZfsEngine, vault: str
) -> None:
    note = Path(f"/{vault}/child/note.txt")
    engine.unload_key(vault, recursive=True)
    assert engine.get_dataset(vault).locked
    assert engine.get_dataset(f"{vault}/child").locked
    assert not note.exists()
    refused("wrong_passphrase", WrongKey, lambda: engine.load_key(vault, "not the passphrase"))
    assert engine.get_dataset(vault).locked
    refused("unload_unloaded", KeyNotLoaded, lambda: engine.unload_key(vault))
    engine.load_key(vault, PASSPHRASE, recursive=True)
    assert note.read_text() == "kept under lock\n"
    refused("load_loaded", KeyAlreadyLoaded, lambda: engine.load_key(vault, PASSPHRASE))
    refused("child_not_root", NotAnEncryptionRoot, lambda: engine.unload_key(f"{vault}/child"))


def test_a_file_held_open_keeps_the_dataset_unlocked(engine: CliZfsEngine, vault: str) -> None:
    with open(f"/{vault}/child/note.txt") as held:
        refused("unload_busy", DatasetBusy, lambda: engine.unload_key(vault, recursive=True))
        assert not engine.get_dataset(vault).locked
        assert held.read() == "kept under lock\n"


def test_create_refusals_name_the_rule(engine: CliZfsEngine, vault: str) -> None:
    refused("passphrase_too_short", ZfsError, lambda: engine.create_dataset(
        f"{POOL}/short", properties=ROOT, key="seven77"))  # fmt: skip
    # OpenZFS 2.x lets a child opt out (the panel refuses it: storage.encryption.services).
    engine.create_dataset(f"{vault}/plain", properties={"encryption": "off"})
    plain = engine.get_dataset(f"{vault}/plain")
    assert (plain.encrypted, plain.encryption_root, plain.key_status) == (False, "", "")
    engine.destroy_dataset(f"{vault}/plain")
    refused("keyformat_missing", ZfsError, lambda: engine.create_dataset(
        f"{POOL}/noformat", properties={"encryption": "on"}))  # fmt: skip
    datasets = {d.name for d in engine.list_datasets(POOL)}
    assert not {f"{POOL}/short", f"{vault}/plain", f"{POOL}/noformat"} & datasets


def test_a_hex_key_file_unlocks_a_zvol_and_a_changed_passphrase_replaces_the_old(
    engine: CliZfsEngine, vault: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "vol.key"
    key_file.write_text(secrets.token_hex(32) + "\n")
    volume = f"{POOL}/keyvol"
    hexed = {"encryption": "on", "keyformat": "hex", "keylocation": f"file://{key_file}"}
    engine.create_zvol(volume, size=16 << 20, sparse=True, properties=hexed)
    try:
        device = engine.zvol_path(volume)
        engine.settle(POOL)
        engine.unload_key(volume)
        assert engine.get_dataset(volume).locked
        engine.load_key(volume)
        assert not engine.get_dataset(volume).locked
        assert engine.get_dataset(volume).key_location == f"file://{key_file}"
        assert device.name
    finally:
        engine.destroy_dataset(volume, force=True)

    engine.change_key(vault, key="a new passphrase here")
    engine.unload_key(vault, recursive=True)
    refused("old_passphrase", WrongKey, lambda: engine.load_key(vault, PASSPHRASE))
    engine.load_key(vault, "a new passphrase here", recursive=True)
    engine.change_key(vault, key=PASSPHRASE)  # the fixture unlocks with it
    assert Path(f"/{vault}/child/note.txt").exists()


def test_a_lost_key_file_is_brought_back_as_the_import_does(
    engine: CliZfsEngine, pool: str, tmp_path: Path
) -> None:
    """storage.encryption.services.keys_import on real OpenZFS: the key typed (-L prompt)
    opens a root whose key file is gone, and change-key keeps it in a new file."""
    key = secrets.token_hex(32)
    lost, kept = tmp_path / "lost.key", tmp_path / "kept.key"
    lost.write_text(key + "\n")
    root = f"{POOL}/imported"
    hexed = {"encryption": "on", "keyformat": "hex", "keylocation": f"file://{lost}"}
    engine.create_dataset(root, properties=hexed)
    Path(f"/{root}/deed.txt").write_text("the house\n")
    try:
        engine.unload_key(root)
        lost.unlink()  # the stick died
        refused("key_file_gone", ZfsError, lambda: engine.load_key(root))
        engine.load_key(root, key, typed=True)
        kept.write_text(key + "\n")
        engine.change_key(root, key_format="hex", key_location=f"file://{kept}")
        engine.unload_key(root)
        engine.load_key(root)  # from the new file, as at the next boot
        assert Path(f"/{root}/deed.txt").read_text() == "the house\n"
    finally:
        engine.destroy_dataset(root, recursive=True, force=True)


def test_a_changed_passphrase_is_the_one_after_the_pool_comes_back(
    engine: CliZfsEngine, vault: str
) -> None:
    """As after a reboot (the tests run inside the guest, which cannot reboot under them):
    the pool exported, the zfs kernel module unloaded and loaded again (the kernel forgets
    every key and every cache it had), the pool imported with every key unloaded."""
    engine.change_key(vault, key="the passphrase after the change")
    engine.export_pool(POOL)
    others = subprocess.run(["zpool", "list", "-H", "-o", "name"], capture_output=True,
                            text=True, check=True).stdout.split()  # fmt: skip
    assert others == [], f"pools still imported: {others}"
    for argv in (["modprobe", "-r", "zfs"], ["modprobe", "zfs"]):
        done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 0, f"{argv}: {done.stderr}"
    engine.import_pool(POOL)
    assert engine.get_dataset(vault).locked
    refused("old_after_import", WrongKey, lambda: engine.load_key(vault, PASSPHRASE))
    engine.load_key(vault, "the passphrase after the change", recursive=True)
    assert Path(f"/{vault}/child/note.txt").read_text() == "kept under lock\n"
    engine.change_key(vault, key=PASSPHRASE)  # the fixture unlocks with it

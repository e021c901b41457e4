"""Encryption services on the sandbox engine: a new root's key, lock, unlock, change of key."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from storage import registry
from storage.datasets import services as datasets
from storage.encryption import selectors, services
from storage.engine import get_engine

pytestmark = pytest.mark.django_db
PASSPHRASE = "correct horse battery"


@pytest.fixture
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    return Path(settings.DATA_DIR)


@pytest.fixture
def heard() -> Iterator[list[tuple[str, bool]]]:
    """What the key listeners (sharing, in the panel) are told."""
    calls: list[tuple[str, bool]] = []
    registry.register_key_listener("test", lambda name, locked: calls.append((name, locked)))
    yield calls
    registry._key_listeners.pop("test", None)


def _errors(caught: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return caught.value.message_dict


def _vault() -> None:
    datasets.dataset_create(
        parent="tank",
        name="vault",
        encryption="passphrase",
        passphrase=PASSPHRASE,
        passphrase_confirm=PASSPHRASE,
    )


def test_a_passphrase_root_is_created_and_its_child_inherits(tank, data_dir):
    _vault()
    datasets.dataset_create(parent="tank/vault", name="docs")
    child = get_engine().get_dataset("tank/vault/docs")
    assert (child.encryption, child.encryption_root) == ("aes-256-gcm", "tank/vault")
    roots = {r.name: r for r in selectors.key_roots()}
    assert list(roots) == ["tank/vault"]
    assert not roots["tank/vault"].unlocks_at_boot
    assert not (data_dir / "keys").exists()  # a passphrase is never written anywhere


def test_a_generated_key_is_kept_private_on_the_data_partition(tank, data_dir):
    datasets.zvol_create(parent="tank", name="disk", size="64M", sparse=True, encryption="key")
    root = selectors.key_root(get_engine().get_dataset("tank/disk"))
    assert root.unlocks_at_boot
    assert root.key_file is not None
    assert root.key_file.parent == data_dir / "keys"
    assert stat.S_IMODE(root.key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(root.key_file.parent.stat().st_mode) == 0o700
    assert len(root.key_file.read_text().strip()) == 64


@pytest.mark.parametrize(
    ("typed", "confirm", "field", "words"),
    [
        ("seven77", "seven77", "passphrase", "At least 8 characters"),
        ("x" * 513, "x" * 513, "passphrase", "At most 512 characters"),
        ("two\nlines here", "two\nlines here", "passphrase", "One line"),
        (PASSPHRASE, PASSPHRASE + "!", "passphrase_confirm", "differ"),
    ],
)
def test_a_bad_passphrase_is_refused_by_field_and_nothing_is_made(
    tank, data_dir, typed, confirm, field, words
):
    with pytest.raises(ValidationError) as caught:
        datasets.dataset_create(
            parent="tank",
            name="vault",
            encryption="passphrase",
            passphrase=typed,
            passphrase_confirm=confirm,
        )
    assert words in " ".join(_errors(caught)[field])
    assert "tank/vault" not in {d.name for d in get_engine().list_datasets("tank")}


def test_off_under_an_encrypted_parent_is_refused_in_words(tank, data_dir):
    _vault()
    with pytest.raises(ValidationError) as caught:
        datasets.dataset_create(parent="tank/vault", name="plain", encryption="off")
    assert "keeps everything under it encrypted" in _errors(caught)["encryption"][0]


def test_a_failed_create_leaves_no_key_file(tank, data_dir):
    datasets.dataset_create(parent="tank", name="taken")
    with pytest.raises(ValidationError):
        datasets.dataset_create(parent="tank", name="taken", encryption="key")
    assert list((data_dir / "keys").iterdir()) == []


def test_lock_and_unlock_tell_the_listeners_and_need_the_right_passphrase(tank, data_dir, heard):
    _vault()
    datasets.dataset_create(parent="tank/vault", name="docs")
    assert services.lock(name="tank/vault").locked
    assert get_engine().get_dataset("tank/vault/docs").locked
    assert heard == [("tank/vault", True)]
    with pytest.raises(ValidationError) as caught:
        services.unlock(name="tank/vault", passphrase="not the passphrase")
    assert "does not unlock it" in _errors(caught)["passphrase"][0]
    with pytest.raises(ValidationError) as caught:
        services.unlock(name="tank/vault")
    assert "Type the passphrase" in _errors(caught)["passphrase"][0]
    with pytest.raises(ValidationError) as caught:
        datasets.dataset_create(parent="tank/vault", name="late")
    assert "is locked" in _errors(caught)["parent"][0]
    assert not services.unlock(name="tank/vault", passphrase=PASSPHRASE).locked
    assert heard == [("tank/vault", True), ("tank/vault", False)]
    with pytest.raises(ValidationError) as caught:
        services.lock(name="tank/vault/docs")
    assert "inherits its key from tank/vault" in _errors(caught)["name"][0]


def test_a_busy_lock_is_refused_and_served_again(tank, data_dir, heard):
    _vault()
    folder = Path(get_engine().get_dataset("tank/vault").mountpoint or "")
    with open(folder / "open.txt", "w"), pytest.raises(ValidationError) as caught:
        services.lock(name="tank/vault")
    assert "busy" in str(_errors(caught))
    assert heard == [("tank/vault", True), ("tank/vault", False)]
    assert not get_engine().get_dataset("tank/vault").locked


def test_a_key_root_unlocks_from_its_file_and_a_change_of_key_retires_the_old_file(tank, data_dir):
    datasets.dataset_create(parent="tank", name="auto", encryption="key")
    old = selectors.key_root(get_engine().get_dataset("tank/auto")).key_file
    services.lock(name="tank/auto")
    services.unlock(name="tank/auto")
    services.change_key(
        "tank/auto", method="passphrase", passphrase=PASSPHRASE, passphrase_confirm=PASSPHRASE
    )
    assert old is not None
    assert not old.exists()
    assert not selectors.key_root(get_engine().get_dataset("tank/auto")).unlocks_at_boot
    services.change_key("tank/auto", method="key")
    root = selectors.key_root(get_engine().get_dataset("tank/auto"))
    assert root.unlocks_at_boot
    services.lock(name="tank/auto")
    services.unlock(name="tank/auto")
    assert not get_engine().get_dataset("tank/auto").locked


def test_the_passphrase_never_shows_in_the_new_keys_repr(tank):
    parent = get_engine().get_dataset("tank")
    key = services.new_key(parent, "passphrase", PASSPHRASE, PASSPHRASE)
    assert PASSPHRASE not in repr(key)
    assert PASSPHRASE not in str(key)


def test_the_boot_unlocks_the_kept_keys_and_leaves_passphrases_waiting(tank, data_dir):
    from django.core.management import call_command

    _vault()
    datasets.dataset_create(parent="tank", name="auto", encryption="key")
    datasets.dataset_create(parent="tank", name="lost", encryption="key")
    for name in ("tank/vault", "tank/auto", "tank/lost"):
        services.lock(name=name)
    lost = selectors.key_root(get_engine().get_dataset("tank/lost")).key_file
    assert lost is not None
    lost.unlink()  # its key file gone: the others still open
    report = services.unlock_at_boot()
    assert report.unlocked == ["tank/auto"]
    assert report.waiting == ["tank/vault"]
    assert list(report.failed) == ["tank/lost"]
    assert get_engine().get_dataset("tank/vault").locked
    assert not get_engine().get_dataset("tank/auto").locked
    services.lock(name="tank/auto")
    call_command("unlock_keys")
    assert not get_engine().get_dataset("tank/auto").locked

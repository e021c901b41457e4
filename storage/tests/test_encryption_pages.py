"""The encryption page: a root's state and actions; a child goes to its root; plain is a 404."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from storage.datasets import services as datasets
from storage.engine import get_engine

pytestmark = pytest.mark.django_db
PASSPHRASE = "correct horse battery"


@pytest.fixture
def vault(tank, settings, tmp_path: Path) -> str:
    settings.DATA_DIR = tmp_path / "data"
    datasets.dataset_create(parent="tank", name="vault", encryption="passphrase",
                            passphrase=PASSPHRASE, passphrase_confirm=PASSPHRASE)  # fmt: skip
    datasets.dataset_create(parent="tank/vault", name="docs")
    return "tank/vault"


def test_a_root_page_shows_what_its_key_opens_and_a_child_goes_to_its_root(admin_client, vault):
    page = admin_client.get("/storage/encryption/tank/vault/")
    assert page.status_code == 200
    text = page.content.decode()
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)  # labels work
    assert "tank/vault, tank/vault/docs" in text
    assert "A passphrase, typed after each boot" in text
    child = admin_client.get("/storage/encryption/tank/vault/docs/")
    assert child.status_code == 302
    assert child["Location"].endswith("/storage/encryption/tank/vault/")
    assert admin_client.get("/storage/encryption/tank/").status_code == 404
    pool = admin_client.get("/storage/pools/tank/").content.decode()
    assert 'data-testid="encryption-badge"' in pool


def test_lock_then_a_wrong_passphrase_is_a_400_that_never_echoes_it(admin_client, vault):
    locked = admin_client.post("/storage/encryption/tank/vault/?action=lock", {})
    assert locked.status_code == 302
    assert get_engine().get_dataset("tank/vault").locked
    wrong = admin_client.post(
        "/storage/encryption/tank/vault/?action=unlock", {"passphrase": "guess it wrongly"}
    )
    assert wrong.status_code == 400
    assert "does not unlock it" in wrong.content.decode()
    assert "guess it wrongly" not in wrong.content.decode()
    opened = admin_client.post(
        "/storage/encryption/tank/vault/?action=unlock", {"passphrase": PASSPHRASE}
    )
    assert opened.status_code == 302
    assert not get_engine().get_dataset("tank/vault").locked


def test_the_page_downloads_the_key_file_and_imports_it(admin_client, vault):
    from django.core.files.uploadedfile import SimpleUploadedFile

    datasets.dataset_create(parent="tank", name="auto", encryption="key")
    page = "/storage/encryption/tank/auto/"
    body = {"passphrase": PASSPHRASE, "passphrase_confirm": PASSPHRASE}
    made = admin_client.post(f"{page}?action=export", body)
    assert made.status_code == 200
    assert made["Content-Disposition"].startswith('attachment; filename="nasui-keys-')
    upload = SimpleUploadedFile("keys.nasui-keys", made.content)
    taken = admin_client.post(f"{page}?action=import", {"file": upload, "passphrase": PASSPHRASE},
                              follow=True)  # fmt: skip
    assert "Keys taken for tank/auto." in taken.content.decode()
    short = admin_client.post(
        f"{page}?action=export", {"passphrase": "x", "passphrase_confirm": "x"}
    )
    assert short.status_code == 400
    assert "At least 8 characters" in short.content.decode()

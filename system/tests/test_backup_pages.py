"""The config backup page: download with a passphrase typed twice; upload, see, confirm."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sharing.models import SmbShare
from system.backups import services

PASSPHRASE = "our family's backup phrase"
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    return tmp_path


def test_the_page_is_in_the_navigation(admin_client) -> None:
    page = admin_client.get("/system/", follow=True)
    assert page.status_code == 200
    assert b"Download a config backup" in page.content
    assert b'href="/system/"' in page.content  # the System entry


def test_a_download_needs_the_same_passphrase_twice(admin_client) -> None:
    body = {"passphrase": PASSPHRASE, "again": PASSPHRASE + "x"}
    refused = admin_client.post("/system/backup/download/", body)
    assert refused.status_code == 400
    assert b"The two passphrases differ" in refused.content
    made = admin_client.post("/system/backup/download/", {**body, "again": PASSPHRASE})
    assert made.status_code == 200
    assert made["Content-Type"] == "application/octet-stream"
    assert made.content.startswith(b"NASUI-CONFIG\n")


def test_an_upload_shows_what_it_holds_then_is_confirmed(admin_client) -> None:
    SmbShare.objects.create(name="photos", dataset="tank/photos")
    data = services.backup_make(passphrase=PASSPHRASE).data
    wrong = admin_client.post(
        "/system/backup/restore/",
        {"archive": SimpleUploadedFile("box.nasui", data), "passphrase": "not the phrase"},
    )
    assert wrong.status_code == 400
    assert b"Wrong passphrase" in wrong.content
    shown = admin_client.post(
        "/system/backup/restore/",
        {"archive": SimpleUploadedFile("box.nasui", data), "passphrase": PASSPHRASE},
    )
    assert shown.status_code == 200
    assert b"Restore this configuration" in shown.content
    assert b"tank" in shown.content  # the pool it names
    assert not services.restore_staged()
    done = admin_client.post("/system/backup/restore/confirm/", follow=True)
    assert b"applied when the panel starts again" in done.content
    assert b'data-testid="restore-waiting"' in done.content
    assert services.restore_staged()
    cancelled = admin_client.post("/system/backup/restore/cancel/", follow=True)
    assert b"nothing changed" in cancelled.content
    assert not services.restore_staged()

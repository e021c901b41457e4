"""The config backup page: download with a passphrase typed twice; upload, see, confirm."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from nasui import services as panel
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
    assert b'href="/system/restore/"' in page.content


def test_a_blank_box_restores_before_its_owner_chooses_a_password(client) -> None:
    """The first login (the console's password) may restore: the archive brings the owner's
    own password back; every other page still asks for a new one."""
    data = services.backup_make(passphrase=PASSPHRASE).data
    admin = User.objects.create_superuser("admin", password="first-boot-Xq9w2")
    panel.password_change_require(user=admin)
    client.force_login(admin)
    first = client.get("/settings/password/").content
    assert b'href="/system/restore/"' in first
    assert client.get("/system/backup/").status_code == 302  # the download is not open
    assert client.get("/system/restore/").status_code == 200
    body = {"archive": SimpleUploadedFile("box.nasui", data), "passphrase": PASSPHRASE}
    assert b"Restore this configuration" in client.post("/system/restore/check/", body).content
    done = client.post("/system/restore/confirm/", follow=True)
    assert b"log in with the admin password the backup holds" in done.content
    assert services.restore_staged()


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
        "/system/restore/check/",
        {"archive": SimpleUploadedFile("box.nasui", data), "passphrase": "not the phrase"},
    )
    assert wrong.status_code == 400
    assert b"Wrong passphrase" in wrong.content
    shown = admin_client.post(
        "/system/restore/check/",
        {"archive": SimpleUploadedFile("box.nasui", data), "passphrase": PASSPHRASE},
    )
    assert shown.status_code == 200
    assert b"Restore this configuration" in shown.content
    assert b"tank" in shown.content  # the pool it names
    assert not services.restore_staged()
    done = admin_client.post("/system/restore/confirm/", follow=True)
    assert b"applied when the panel starts again" in done.content
    assert b'data-testid="restore-waiting"' in done.content
    assert services.restore_staged()
    cancelled = admin_client.post("/system/restore/cancel/", follow=True)
    assert b"nothing changed" in cancelled.content
    assert not services.restore_staged()

"""Config backups through the services and the API: what an archive holds, every refusal, and
a restore staged for the next start (applying it is the engine's test: it replaces the live
database)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from sharing.models import LocalGroup, LocalUser, NfsShare, SmbShare
from storage.models import SnapshotTask
from system.backups import services
from system.backups.engine import archive, files

PASSPHRASE = "our family's backup phrase"
pytestmark = pytest.mark.django_db(transaction=True)  # the archive reads committed rows


@pytest.fixture
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    (tmp_path / "secret_key").write_text("the panel's secret\n")
    return tmp_path


@pytest.fixture
def configured(data_dir: Path) -> None:
    family = LocalGroup.objects.create(name="family", gid=3000)
    LocalUser.objects.create(username="mum", uid=3000, group=family)
    SmbShare.objects.create(name="photos", dataset="tank/photos")
    NfsShare.objects.create(dataset="media/films", networks=["192.168.1.0/24"])
    SnapshotTask.objects.create(dataset="tank/photos")


def test_an_archive_holds_the_configuration_and_the_secret_key(configured, data_dir) -> None:
    made = services.backup_make(passphrase=PASSPHRASE)
    assert made.name.endswith(".nasui")
    opened = archive.open_archive(made.data, PASSPHRASE)
    assert opened.members["secret_key"] == b"the panel's secret\n"
    summary = services.backup_inspect(data=made.data, passphrase=PASSPHRASE)
    assert summary.counts["SMB shares"] == 1
    assert summary.counts["NFS exports"] == 1
    assert summary.counts["Users"] == 1
    assert summary.counts["Snapshot tasks"] == 1
    assert summary.pools == ["media", "tank"]
    assert summary.version


def test_a_restore_is_staged_with_the_archive_s_database(configured, data_dir) -> None:
    made = services.backup_make(passphrase=PASSPHRASE)
    SmbShare.objects.all().delete()  # changed after the backup: the archive's state comes back
    services.restore_stage(data=made.data, passphrase=PASSPHRASE)
    assert services.restore_staged()
    staged = data_dir / files.STAGED / files.DATABASE
    with sqlite3.connect(staged) as db:
        names = [row[0] for row in db.execute(f"SELECT name FROM {SmbShare._meta.db_table}")]  # noqa: S608
    assert names == ["photos"]
    assert SmbShare.objects.count() == 0  # nothing live changed


def test_a_prepared_restore_waits_for_its_confirmation(configured, data_dir) -> None:
    made = services.backup_make(passphrase=PASSPHRASE)
    services.restore_prepare(data=made.data, passphrase=PASSPHRASE)
    assert not services.restore_staged()
    services.restore_confirm()
    assert services.restore_staged()
    services.restore_cancel()
    assert not services.restore_staged()
    with pytest.raises(ValidationError, match="No archive is waiting"):
        services.restore_confirm()


def refused_on(field: str, **kwargs: object) -> str:
    with pytest.raises(ValidationError) as caught:
        services.restore_stage(**kwargs)  # type: ignore[arg-type]
    assert field in caught.value.message_dict, caught.value.message_dict
    return caught.value.message_dict[field][0]


def test_a_wrong_passphrase_is_refused_on_its_field_and_stages_nothing(configured) -> None:
    made = services.backup_make(passphrase=PASSPHRASE)
    assert "Wrong passphrase" in refused_on("passphrase", data=made.data, passphrase="not it, no")
    assert not services.restore_staged()


def test_a_truncated_archive_is_refused_on_the_archive(configured) -> None:
    made = services.backup_make(passphrase=PASSPHRASE)
    words = refused_on("archive", data=made.data[: len(made.data) // 2], passphrase=PASSPHRASE)
    assert "cut short" in words
    assert not services.restore_staged()


def test_an_archive_from_a_newer_nasui_is_refused(configured, data_dir, tmp_path) -> None:
    """Its database has a migration this panel does not: it cannot be brought back here."""
    opened = archive.open_archive(services.backup_make(passphrase=PASSPHRASE).data, PASSPHRASE)
    copy = tmp_path / "newer.sqlite3"
    copy.write_bytes(opened.members[files.DATABASE])
    with sqlite3.connect(copy) as db:
        db.execute("INSERT INTO django_migrations (app, name, applied) "
                   "VALUES ('sharing', '9999_from_the_future', '2027-01-01')")  # fmt: skip
    members = {**opened.members, files.DATABASE: copy.read_bytes()}
    newer = archive.seal(members, archive.recipient(PASSPHRASE), opened.about)
    words = refused_on("archive", data=newer, passphrase=PASSPHRASE)
    assert "newer nasui" in words
    assert "sharing.9999_from_the_future" in words
    assert not services.restore_staged()


def test_a_short_passphrase_is_refused_for_a_backup(data_dir) -> None:
    with pytest.raises(ValidationError) as caught:
        services.backup_make(passphrase="short")
    assert "at least 8" in caught.value.message_dict["passphrase"][0]


# -- the API ----------------------------------------------------------------------------------


def upload(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("box.nasui", data, content_type="application/octet-stream")


def test_the_api_downloads_inspects_and_stages(configured, admin_client) -> None:
    made = admin_client.post("/api/system/backup/", {"passphrase": PASSPHRASE},
                             content_type="application/json")  # fmt: skip
    assert made.status_code == 200
    assert made["Content-Disposition"].startswith('attachment; filename="nasui-config-')
    data = made.content
    seen = admin_client.post("/api/system/restore/inspect/",
                             {"archive": upload(data), "passphrase": PASSPHRASE})  # fmt: skip
    assert seen.status_code == 200, seen.content
    assert seen.json()["counts"]["SMB shares"] == 1
    assert not services.restore_staged()  # inspecting changes nothing
    wrong_one = {"archive": upload(data), "passphrase": "wrong passphrase"}
    wrong = admin_client.post("/api/system/restore/", wrong_one)
    assert wrong.status_code == 400
    assert "passphrase" in wrong.json()["fields"]
    assert not services.restore_staged()
    staged = admin_client.post("/api/system/restore/",
                               {"archive": upload(data), "passphrase": PASSPHRASE})  # fmt: skip
    assert staged.status_code == 202, staged.content
    assert staged.json()["staged"] is True
    assert services.restore_staged()


def test_the_api_wants_a_login(client) -> None:
    assert client.post("/api/system/backup/", {"passphrase": PASSPHRASE}).status_code in (401, 403)

"""The backup schedule: set once with a passphrase (never kept), archives written onto a
dataset at their slots, the oldest beyond `keep` removed, and every refusal on its field."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from storage.datasets import services as datasets
from system.backup_schedules import selectors, services, tasks
from system.backups.engine import archive
from system.models import BackupSchedule

PASSPHRASE = "our family's backup phrase"
EVERY_MINUTE = {"minutes": "*", "hours": "*", "days_of_week": "*"}


@pytest.fixture
def backups_dataset(tank, settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    datasets.dataset_create(parent="tank", name="backups")
    return Path(selectors.dataset_folder("tank/backups"))


def refused_on(field: str, **values: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        services.schedule_update(**values)
    assert field in caught.value.message_dict, caught.value.message_dict


@pytest.mark.django_db(transaction=True)
def test_scheduled_archives_open_with_the_passphrase_that_is_not_kept(backups_dataset) -> None:
    row = services.schedule_update(enabled=True, dataset="tank/backups", keep=2,
                                   passphrase=PASSPHRASE, **EVERY_MINUTE)  # fmt: skip
    assert PASSPHRASE not in str(BackupSchedule.objects.values().get())
    written = services.schedule_run(row)
    assert written.parent == backups_dataset
    opened = archive.open_archive(written.read_bytes(), PASSPHRASE)
    assert "database.sqlite3" in opened.members
    assert written.stat().st_mode & 0o777 == 0o600


@pytest.mark.django_db(transaction=True)
def test_the_oldest_archives_beyond_keep_are_removed(backups_dataset) -> None:
    row = services.schedule_update(enabled=True, dataset="tank/backups", keep=2,
                                   passphrase=PASSPHRASE, **EVERY_MINUTE)  # fmt: skip
    stranger = backups_dataset / "holiday.jpg"
    stranger.write_bytes(b"not ours")
    for index in range(4):  # archives named by the second they were made: spread them out
        made = services.schedule_run(row)
        made.rename(made.with_name(f"nasui-config-box-2026010{index}-000000.nasui"))
    kept = [p.name for p in selectors.kept_archives(backups_dataset)]
    # Each run removed the oldest beyond two: the last two renamed are left.
    assert kept == [f"nasui-config-box-2026010{i}-000000.nasui" for i in (2, 3)]
    assert stranger.exists()  # only the schedule's own archives are pruned


@pytest.mark.django_db(transaction=True)
def test_the_beat_writes_one_archive_per_slot(backups_dataset) -> None:
    services.schedule_update(enabled=True, dataset="tank/backups", keep=5,
                             passphrase=PASSPHRASE, **EVERY_MINUTE)  # fmt: skip
    BackupSchedule.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    first = tasks.backup_due()
    assert first
    assert Path(first).exists()
    assert tasks.backup_due() == ""  # the slot was claimed
    row = selectors.schedule_get()
    assert row.last_file == first
    assert row.last_error == ""


@pytest.mark.django_db
def test_off_until_set_and_nothing_due(tank) -> None:
    assert selectors.schedule_get().enabled is False
    assert tasks.backup_due() == ""


@pytest.mark.django_db
def test_refusals_name_the_field_and_change_nothing(backups_dataset) -> None:
    refused_on("passphrase", enabled=True, dataset="tank/backups", keep=3)  # none kept yet
    refused_on("passphrase", enabled=True, dataset="tank/backups", passphrase="short")
    refused_on("dataset", enabled=True, dataset="tank/nothing", passphrase=PASSPHRASE)
    refused_on("dataset", enabled=True, dataset="", passphrase=PASSPHRASE)
    refused_on("keep", enabled=True, dataset="tank/backups", keep=0, passphrase=PASSPHRASE)
    refused_on("minutes", enabled=True, dataset="tank/backups", minutes="61",
               passphrase=PASSPHRASE)  # fmt: skip
    refused_on("colour", colour="blue")
    row = BackupSchedule.objects.get()
    assert (row.enabled, row.dataset, row.public_key) == (False, "", "")


# -- the page and the API ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_saves_the_schedule_and_says_errors_on_fields(backups_dataset, admin_client):
    page = admin_client.get("/system/backup/schedule/")
    assert page.status_code == 200
    assert b"No passphrase set yet" in page.content
    body = {"enabled": "on", "dataset": "tank/backups", "keep": "3", "passphrase": "",
            **EVERY_MINUTE}  # fmt: skip
    refused = admin_client.post("/system/backup/schedule/", body)
    assert refused.status_code == 400
    assert b'data-field-error="passphrase"' in refused.content
    saved = admin_client.post("/system/backup/schedule/", {**body, "passphrase": PASSPHRASE},
                              follow=True)  # fmt: skip
    assert b"Scheduled backups are on." in saved.content
    assert b"A passphrase is set." in saved.content
    assert selectors.schedule_get().keep == 3


@pytest.mark.django_db
def test_the_api_reads_and_changes_the_schedule(backups_dataset, admin_client) -> None:
    url = "/api/system/backup/schedule/"
    assert admin_client.get(url).json()["enabled"] is False
    bad = admin_client.put(url, {"enabled": True, "dataset": "tank/backups"},
                           content_type="application/json")  # fmt: skip
    assert bad.status_code == 400
    assert "passphrase" in bad.json()["fields"]
    done = admin_client.put(url, {"enabled": True, "dataset": "tank/backups",
                                  "passphrase": PASSPHRASE, **EVERY_MINUTE},
                            content_type="application/json")  # fmt: skip
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["sealed"] is True
    assert body["next_runs"]
    assert "passphrase" not in body

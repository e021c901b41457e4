"""The backup schedule: config archives written onto a dataset, the newest few kept.

Setting it asks for the passphrase once and keeps only what it gives that may be kept (the
salt and the public key): the scheduled archives need no passphrase to be made, only to be
opened. A run writes into the dataset's folder (a file the family can copy off the box) and
removes the oldest of the schedule's own archives there beyond `keep`.
"""

from __future__ import annotations

import base64
from datetime import datetime
from pathlib import Path
from typing import Any

from django.utils import timezone

from nasui.lib.files import write_atomic
from nasui.validation import fail
from storage.schedule import ScheduleError
from system.backup_schedules import selectors
from system.backups import services as backups
from system.backups.engine.archive import Recipient
from system.models import BackupSchedule

FIELDS = ("enabled", "dataset", "keep", "minutes", "hours", "days_of_week")


def schedule_update(*, passphrase: str = "", **values: Any) -> BackupSchedule:
    """Change the schedule; a new passphrase replaces the kept key. Refusals name the field
    and change nothing."""
    row = selectors.schedule_get()
    for key, value in values.items():
        if key not in FIELDS:
            raise fail(key, "Unknown field.")
        setattr(row, key, value.strip() if isinstance(value, str) else value)
    _check(row)
    if passphrase:
        to = backups.recipient_of(passphrase)
        row.salt, row.public_key = _b64(to.salt), _b64(to.public)
    elif row.enabled and not row.public_key:
        raise fail("passphrase", "Type the passphrase the scheduled archives are sealed with.")
    row.save()
    return row


def schedule_run(row: BackupSchedule, *, now: datetime | None = None) -> Path:
    """Write one archive now and prune the oldest beyond `keep`; the file written. The outcome
    is kept on the row (its last error, when it failed) and raised."""
    row.last_run_at = now or timezone.now()
    try:
        written = _write(row)
    except Exception as exc:
        row.last_error = str(exc)
        row.save(update_fields=["last_run_at", "last_error"])
        raise
    row.last_file, row.last_error = str(written), ""
    row.save(update_fields=["last_run_at", "last_file", "last_error"])
    return written


def _write(row: BackupSchedule) -> Path:
    folder = selectors.dataset_folder(row.dataset)
    to = Recipient(base64.b64decode(row.salt), base64.b64decode(row.public_key))
    made = backups.archive_for(to)
    path = folder / made.name
    write_atomic(path, made.data, mode=0o600)
    for old in selectors.kept_archives(folder)[: -row.keep]:
        old.unlink(missing_ok=True)
    return path


def _check(row: BackupSchedule) -> None:
    try:
        selectors.schedule_of(row)
    except ScheduleError as exc:
        raise fail(exc.field, exc.message) from exc
    if not 1 <= int(row.keep) <= 1000:
        raise fail("keep", "Keep from 1 to 1000 archives.")
    if row.enabled or row.dataset:
        selectors.dataset_folder(row.dataset)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()

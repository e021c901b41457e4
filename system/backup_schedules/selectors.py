"""Reads of the backup schedule: the row, its schedule, its next runs, the archives it keeps."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from nasui.validation import fail
from storage.datasets.selectors import dataset_get
from storage.periodic import next_slots
from storage.schedule import Schedule
from storage.zfs.errors import DatasetNotFound
from system.models import BackupSchedule

PREFIX = "nasui-config-"
SUFFIX = ".nasui"


def schedule_get() -> BackupSchedule:
    """The one schedule row (off, with defaults, until the user sets it)."""
    return BackupSchedule.load()


def schedule_of(row: BackupSchedule) -> Schedule:
    """The row's cron-like fields as a Schedule."""
    return Schedule.from_fields(row.minutes, row.hours, row.days_of_week)


def upcoming(row: BackupSchedule, count: int = 3) -> list[datetime]:
    """The next runs, for the page and the API (none while off)."""
    return next_slots(schedule_of(row), count) if row.enabled else []


def dataset_folder(name: str) -> Path:
    """The mounted folder of a file system, or a ValidationError on `dataset`."""
    if not name:
        raise fail("dataset", "Choose the dataset the archives are written to.")
    try:
        dataset = dataset_get(name)
    except DatasetNotFound:
        raise fail("dataset", f"There is no dataset named “{name}”.") from None
    if dataset.is_volume or not dataset.mountpoint or not Path(dataset.mountpoint).is_dir():
        raise fail("dataset", f"{name} is not a mounted file system: archives are files.")
    return Path(dataset.mountpoint)


def kept_archives(folder: Path) -> list[Path]:
    """The archives the schedule wrote in `folder`, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    ours = (p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX))
    return sorted(p for p in ours if p.is_file())

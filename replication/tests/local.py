"""A local task between two sandbox pools (tank/home to backup/home) and its steps: snapshot
a day's file, run the task as the worker does. Shared by the run and restore tests (the
fixtures through conftest.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from nasui.models import Job
from replication.models import ReplicationTask
from replication.replications import services
from storage.engine import get_engine

SCHEMA = "auto-%Y-%m-%d_%H-%M"


def stamp(day: int) -> str:
    return datetime(2026, 1, day, tzinfo=UTC).strftime(SCHEMA)


def snapshot(day: int, text: str = "") -> None:
    engine = get_engine()
    folder = Path(engine.get_dataset("tank/home").mountpoint or "")
    (folder / f"day{day}.txt").write_text(text or f"written on day {day}\n")
    engine.create_snapshot(f"tank/home@{stamp(day)}")


def run(task: ReplicationTask) -> Job:
    job = services.replication_task_start(task=task)
    job.refresh_from_db()
    task.refresh_from_db()
    return job


def target_snaps() -> list[str]:
    return [s.short_name for s in get_engine().list_snapshots("backup/home")]

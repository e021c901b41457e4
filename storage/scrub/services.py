"""Scheduled scrubs: every pool is checked on its schedule (daily by default) and scrubbed
when its last scrub is older than the threshold (35 days by default), as TrueNAS does.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.utils import timezone

from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail, refusal
from storage.engine import get_engine
from storage.errors import engine_call
from storage.models import ScrubTask
from storage.periodic import claimed_slots, next_slots, save_changes
from storage.schedule import Schedule, ScheduleError
from storage.scrub import services
from storage.zfs import errors as zfs

log = logging.getLogger(__name__)
FIELDS = ("threshold_days", "minutes", "hours", "days_of_week", "enabled")
MAX_THRESHOLD_DAYS = 365


def scrub_tasks() -> list[ScrubTask]:
    """Every imported pool's scrub task, a default one made for a pool that has none."""
    pools = [p.name for p in get_engine().list_pools()]
    for pool in pools:
        ScrubTask.objects.get_or_create(pool=pool)
    return list(ScrubTask.objects.filter(pool__in=pools))


def scrub_task_get(pool: str) -> ScrubTask:
    """The pool's scrub task (made with the defaults on first use)."""
    if pool not in {p.name for p in get_engine().list_pools()}:
        raise fail("pool", f"There is no pool named “{pool}”.")
    return scrub_task_of(pool)


def scrub_task_of(pool: str) -> ScrubTask:
    """The scrub task of a pool the caller knows exists (made with the defaults if new)."""
    task, _ = ScrubTask.objects.get_or_create(pool=pool)
    return task


def schedule_of(task: ScrubTask) -> Schedule:
    """When the task checks its pool."""
    return Schedule.from_fields(task.minutes, task.hours, task.days_of_week)


def scrub_task_update(*, task: ScrubTask, **values: Any) -> ScrubTask:
    """Change how often a pool is checked and how old its last scrub may get."""
    return save_changes(task, values, FIELDS, _check)


def _check(task: ScrubTask) -> None:
    """The threshold and the schedule, each error on its own field."""
    if not 1 <= int(task.threshold_days) <= MAX_THRESHOLD_DAYS:
        raise fail("threshold_days", f"Use 1 to {MAX_THRESHOLD_DAYS} days.")
    try:
        schedule_of(task)
    except ScheduleError as exc:
        raise fail(exc.field, exc.message) from exc


def last_scrub(pool: str) -> datetime | None:
    """When the pool's last scrub finished (aware), None if its last scan was not one."""
    scan = get_engine().pool_status(pool).scan
    if scan.function != "scrub" or scan.state != "finished" or scan.when_local is None:
        return None
    return scan.when_local.astimezone()  # zpool prints the machine's local time


def next_check(task: ScrubTask) -> datetime | None:
    """The task's next check, for the pool page."""
    found = next_slots(schedule_of(task))
    return found[0] if found else None


def run_due_scrubs(now: datetime | None = None) -> list[str]:
    """Check every pool whose slot has come; the pools a scrub was started on."""
    now = now or timezone.now()
    started = []
    for task, _slot in claimed_slots(scrub_tasks(), schedule_of, now):
        if scrub_check(task, now):
            started.append(task.pool)
    return started


def scrub_check(task: ScrubTask, now: datetime) -> bool:
    """Start the pool's scrub if its last one is too old; record why or why not."""
    try:
        outcome, start = _decide(task, now)
        if start:
            services.pool_scrub(name=task.pool)
            task.last_started_at = now
    except (zfs.ZfsError, ValidationError) as exc:
        outcome, start = f"Could not start a scrub: {exc}", False
        log.warning("scrub check of %s: %s", task.pool, exc)
    task.last_checked_at, task.last_outcome = now, outcome[:255]
    task.save(update_fields=["last_checked_at", "last_outcome", "last_started_at"])
    return start


def _decide(task: ScrubTask, now: datetime) -> tuple[str, bool]:
    """(what the check concluded, whether to scrub now)."""
    scan = get_engine().pool_status(task.pool).scan
    if scan.state == "scanning":
        return f"A {scan.function} is running: checked again at the next slot.", False
    last = last_scrub(task.pool) or task.last_started_at
    if last is not None and now - last < timedelta(days=task.threshold_days):
        age = (now - last).days
        return f"Last scrub {age} day{'s' * (age != 1)} ago: not due.", False
    return "Scrub started.", True


def pool_scrub(*, name: str, user: User | AnonymousUser | None = None) -> Job:
    """Start a scrub and the job that follows its progress."""
    engine_call(lambda: get_engine().get_pool(name))
    if Job.objects.filter(kind="pool.scrub", arguments__name=name).exclude(status__in=Job.FINISHED):
        raise refusal(f"A scrub of {name} is already running.")
    return job_start(
        kind="pool.scrub",
        title=f"Scrub pool {name}",
        task="storage.pool_scrub",
        user=user,
        name=name,
    )

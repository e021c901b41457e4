"""Replication tasks raise alerts: a failed run, a refusal waiting for the user, a copy too old."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from monitoring.alerting.selectors.sources import replication_source
from replication.models import ReplicationTask

pytestmark = pytest.mark.django_db


def task(**values: object) -> ReplicationTask:
    given = {"name": "home", "direction": "local", "source": "tank/home", "target": "b/home",
             "naming_schema": "auto-%Y-%m-%d_%H-%M", "trigger": "manual", **values}  # fmt: skip
    return ReplicationTask.objects.create(**given)


def test_a_healthy_task_raises_nothing() -> None:
    task(max_age_hours=24, newest_at=timezone.now())
    assert replication_source() == []


def test_a_failed_run_and_a_refusal_are_alerts_in_words() -> None:
    task(last_error="Cannot connect to root@192.0.2.7 port 22: Connection timed out")
    task(name="kids", refusal="The target has changed since auto-1.", refusal_choice="rollback")
    alerts = {a.subject: a for a in replication_source()}
    assert alerts["home"].level == "danger"
    assert "Connection timed out" in alerts["home"].text
    assert alerts["kids"].level == "warning"
    assert "waits for you" in alerts["kids"].title


def test_a_copy_older_than_allowed_is_late_and_a_disabled_task_is_quiet() -> None:
    task(
        max_age_hours=24, newest_at=timezone.now() - timedelta(hours=30), newest_snapshot="b/home@x"
    )
    task(name="off", enabled=False, last_error="boom")
    [late] = replication_source()
    assert late.kind == "replication_late"
    assert "b/home@x" in late.text

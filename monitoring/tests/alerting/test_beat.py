"""The alert check as beat runs it: scheduled every minute, and run by a real worker."""

from __future__ import annotations

import time

import pytest

from monitoring.alerting.services.mail import mail_settings_update
from monitoring.models import AlertRecord
from nasui.celery import app, build_beat_schedule
from storage.models import SnapshotTask

from .conftest import Inbox


def test_beat_checks_alerts_every_minute_and_a_late_check_expires() -> None:
    entry = build_beat_schedule(heartbeat_seconds=10, sandbox_rescan_seconds=None)[
        "alerts-evaluate"
    ]
    assert (entry["task"], entry["schedule"]) == ("monitoring.alerts_evaluate", 60.0)
    assert entry["options"] == {"expires": 54.0}


def test_the_task_is_known_to_the_worker_app() -> None:
    app.loader.import_default_modules()
    assert "monitoring.alerts_evaluate" in app.tasks


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_raises_the_alert_and_mails_the_owner(
    celery_worker_process, smtp_server: Inbox
) -> None:
    mail_settings_update(
        enabled=True,
        host="127.0.0.1",
        port=smtp_server.port,
        security="none",
        from_address="nas@example.com",
        to_addresses=["owner@example.com"],
    )
    SnapshotTask.objects.create(dataset="tank/home", last_error="Dataset does not exist.")
    app.send_task("monitoring.alerts_evaluate")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not smtp_server.mails:
        time.sleep(0.2)
    (mail,) = smtp_server.mails
    assert mail.subject.endswith("] DANGER: Periodic snapshots of tank/home failed")
    assert mail.recipients == ["owner@example.com"]
    assert AlertRecord.objects.get().kind == "snapshot_task"  # no worker alert: it answered

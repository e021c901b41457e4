"""The life of an alert: raised once, refreshed, cleared, dismissed, raised again as new."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from monitoring.alerting import selectors
from monitoring.alerting.selectors import registry
from monitoring.alerting.services import lifecycle
from monitoring.alerting.services.mail import mail_settings_update
from monitoring.metrics.engine.alerts import Alert
from monitoring.models import AlertRecord, MailState

pytestmark = pytest.mark.django_db

DEGRADED = Alert("danger", "pool_health", "tank", "Pool tank is DEGRADED", "A disk failed.")
FULL_85 = Alert("warning", "pool_full", "tank", "Pool tank is 85% full", "Free space.")
FULL_95 = Alert("danger", "pool_full", "tank", "Pool tank is 95% full", "Free space now.")


def test_a_condition_is_raised_once_however_often_it_is_seen(fake_source) -> None:
    fake_source.append(DEGRADED)
    first = lifecycle.evaluate()
    second = lifecycle.evaluate()
    assert first.raised == ["pool_health:tank"]
    assert second.raised == []
    assert second.refreshed == ["pool_health:tank"]
    (alert,) = AlertRecord.objects.all()
    assert (alert.level, alert.title, alert.source, alert.is_open) == (
        "danger", "Pool tank is DEGRADED", "fake", True,
    )  # fmt: skip


def test_a_refresh_updates_title_and_seen_time(fake_source) -> None:
    fake_source.append(FULL_85)
    start = timezone.now()
    lifecycle.evaluate(now=start)
    fake_source[0] = Alert("warning", "pool_full", "tank", "Pool tank is 87% full", "Free space.")
    lifecycle.evaluate(now=start + timedelta(minutes=1))
    alert = AlertRecord.objects.get()
    assert alert.title == "Pool tank is 87% full"
    assert alert.raised_at == start
    assert alert.seen_at == start + timedelta(minutes=1)


def test_an_alert_clears_when_its_condition_ends(fake_source) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    fake_source.clear()
    outcome = lifecycle.evaluate()
    assert outcome.cleared == ["pool_health:tank"]
    alert = AlertRecord.objects.get()
    assert alert.cleared_at is not None
    assert not alert.is_open
    assert list(selectors.history()) == [alert]
    assert selectors.badge_count() == 0


def test_a_returning_condition_is_a_new_alert(fake_source) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    fake_source.clear()
    lifecycle.evaluate()
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    old, new = AlertRecord.objects.order_by("id")
    assert old.cleared_at is not None
    assert new.is_open
    assert new.pk != old.pk


def test_a_dismissed_alert_leaves_the_count_until_it_clears_and_returns(
    fake_source, admin_user
) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    alert = AlertRecord.objects.get()
    assert selectors.badge_count() == 1
    lifecycle.alert_dismiss(alert=alert, user=admin_user)
    lifecycle.evaluate()  # still there: stays dismissed
    assert selectors.badge_count() == 0
    assert list(selectors.dismissed()) == [alert]
    fake_source.clear()
    lifecycle.evaluate()
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    assert selectors.badge_count() == 1
    assert AlertRecord.objects.get(cleared_at=None).dismissed_at is None


def test_a_cleared_alert_cannot_be_dismissed(fake_source, admin_user) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    fake_source.clear()
    lifecycle.evaluate()
    with pytest.raises(ValidationError):
        lifecycle.alert_dismiss(alert=AlertRecord.objects.get(), user=admin_user)


def test_a_rise_to_danger_undoes_a_dismissal(fake_source, admin_user) -> None:
    fake_source.append(FULL_85)
    lifecycle.evaluate()
    lifecycle.alert_dismiss(alert=AlertRecord.objects.get(), user=admin_user)
    fake_source[0] = FULL_95
    lifecycle.evaluate()
    alert = AlertRecord.objects.get()
    assert (alert.level, alert.dismissed_at) == ("danger", None)
    fake_source[0] = FULL_85  # falling back is only a refresh
    lifecycle.evaluate()
    assert AlertRecord.objects.get().level == "warning"


def test_a_failing_source_keeps_its_alerts(fake_source, monkeypatch) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()

    def broken() -> list[Alert]:
        raise RuntimeError("zpool timed out")

    monkeypatch.setitem(registry.SOURCES, "fake", broken)
    outcome = lifecycle.evaluate()
    assert outcome.failed == {"fake": "zpool timed out"}
    assert outcome.cleared == []
    assert AlertRecord.objects.get().is_open


def test_evaluating_one_source_leaves_the_others_alone(fake_source, monkeypatch) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    monkeypatch.setitem(registry.SOURCES, "other", lambda: [])
    assert lifecycle.evaluate(only={"other"}).cleared == []
    assert AlertRecord.objects.get().is_open


def test_alerts_of_a_source_no_longer_registered_are_cleared(fake_source, monkeypatch) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    monkeypatch.setattr(registry, "SOURCES", {})
    assert lifecycle.evaluate().cleared == ["pool_health:tank"]


def test_mail_is_due_only_while_email_is_set_up(fake_source) -> None:
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    assert AlertRecord.objects.get().raise_mail == MailState.OFF
    fake_source.clear()
    lifecycle.evaluate()  # never announced: no clear mail either
    assert AlertRecord.objects.get().clear_mail == MailState.NONE
    mail_settings_update(enabled=True, host="127.0.0.1", from_address="nas@example.com",
                         to_addresses=["owner@example.com"])  # fmt: skip
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    fake_source.clear()
    lifecycle.evaluate()
    new = AlertRecord.objects.order_by("-id").first()
    assert new is not None
    assert (new.raise_mail, new.clear_mail) == (MailState.PENDING, MailState.PENDING)

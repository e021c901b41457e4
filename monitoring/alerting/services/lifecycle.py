"""The life of an alert: raised once, refreshed while it holds, cleared when it ends, dismissed.

Rules:
- a condition without an open alert of its key raises a new one (and its raise mail is due);
- an open alert whose condition still holds is refreshed (title, text, level, seen_at); a rise
  from warning to danger is announced again and undoes a dismissal, since the user dismissed a
  milder problem;
- an open alert whose source answered without it is cleared (and its clear mail is due when the
  raise mail was sent or is still waiting); alerts of a source that failed are left as they are;
- dismissing hides an open alert from the count until it clears; if the condition returns
  later, that is a new alert.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

# the built-in sources register themselves on import
from monitoring.alerting.selectors import registry, sources  # noqa: F401
from monitoring.metrics.engine.alerts import Alert
from monitoring.models import AlertRecord, Level, MailSettings, MailState
from nasui import events

RANK: dict[str, int] = {Level.WARNING: 1, Level.DANGER: 2}


@dataclass
class Outcome:
    """What one evaluation changed."""

    raised: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def _mail_due() -> str:
    """The mail state of a new event: pending when e-mail is set up, else off."""
    config = MailSettings.objects.filter(pk=1).first()
    return MailState.PENDING if config is not None and config.ready else MailState.OFF


def _announce(row: AlertRecord, state: str) -> None:
    """Tell the event stream (the alert badge and scripts follow it)."""
    events.publish("alert", id=row.pk, key=row.key, level=row.level, title=row.title, state=state)


def _raise(key: str, source: str, alert: Alert, now: datetime, mail: str) -> bool:
    """A new open alert; False when another evaluation raised it first."""
    try:
        with transaction.atomic():
            row = AlertRecord.objects.create(
                key=key, source=source, level=alert.level, kind=alert.kind,
                subject=alert.subject, title=alert.title, text=alert.text,
                raised_at=now, seen_at=now, raise_mail=mail,
            )  # fmt: skip
    except IntegrityError:
        return False
    _announce(row, "raised")
    return True


def _refresh(row: AlertRecord, alert: Alert, now: datetime, mail: str) -> None:
    """Bring an open alert up to date; a rise in level is announced again."""
    risen = RANK.get(alert.level, 0) > RANK.get(row.level, 0)
    if risen:
        row.dismissed_at, row.dismissed_by, row.raise_mail = None, None, mail
    row.level, row.title, row.text, row.seen_at = alert.level, alert.title, alert.text, now
    row.save()
    if risen:
        _announce(row, "raised")


def _clear(row: AlertRecord, now: datetime, mail: str) -> None:
    """Close an alert whose condition ended."""
    row.cleared_at = now
    announced = row.raise_mail in (MailState.PENDING, MailState.SENT)
    row.clear_mail = mail if announced else MailState.NONE
    row.save()
    _announce(row, "cleared")


def evaluate(*, only: Collection[str] | None = None, now: datetime | None = None) -> Outcome:
    """Ask the sources (all, or those named) and raise, refresh and clear alerts to match."""
    now = now or timezone.now()
    gathered = registry.gather(only)
    mail = _mail_due()
    outcome = Outcome(failed=gathered.failed)
    answered = Q(source__in=gathered.checked)
    if only is None:
        # a source no longer registered (its app removed) will never clear its alerts itself
        answered |= ~Q(source__in=list(registry.SOURCES))
    open_rows = {row.key: row for row in AlertRecord.objects.filter(answered, cleared_at=None)}
    for key, (source, alert) in gathered.found.items():
        row = open_rows.pop(key, None)
        if row is not None:
            _refresh(row, alert, now, mail)
            outcome.refreshed.append(key)
        elif _raise(key, source, alert, now, mail):
            outcome.raised.append(key)
    for key, row in open_rows.items():
        _clear(row, now, mail)
        outcome.cleared.append(key)
    return outcome


def alert_dismiss(*, alert: AlertRecord, user: AbstractBaseUser | None) -> AlertRecord:
    """Hide an open alert until it clears (a cleared one has nothing left to dismiss)."""
    if not alert.is_open:
        raise ValidationError({"alert": "This alert has already cleared."})
    if alert.dismissed_at is None:
        alert.dismissed_at = timezone.now()
        alert.dismissed_by = user  # type: ignore[assignment]
        alert.save(update_fields=["dismissed_at", "dismissed_by"])
        _announce(alert, "dismissed")
    return alert


WORKER_CHECK_KEY = "alerting-worker-check"
WORKER_CHECK_SECONDS = 30


def refresh_worker_alert() -> None:
    """Check the worker from the web side too: a dead worker cannot raise its own alert.

    At most once per WORKER_CHECK_SECONDS; its mail goes out when a worker runs again.
    """
    try:
        due = cache.add(WORKER_CHECK_KEY, 1, WORKER_CHECK_SECONDS)
    except Exception:  # Redis down: that is just what the worker alert should say
        due = True
    if due:
        evaluate(only={"worker"})

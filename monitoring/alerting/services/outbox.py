"""Delivering the alert mails that are due, under an hourly limit; nothing is silently lost.

The rule: at most MAILS_PER_HOUR alert mails in any rolling hour (test mails do not count).
Events waiting are sent oldest first, one mail each, while the hour's allowance lasts. When
more are waiting than the allowance left, the last allowed mail is a digest of all the rest;
when the allowance is spent, events wait (held) and go out as soon as the hour rolls on. A
failure to send stops the round, is recorded on the settings, and the events stay waiting.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from monitoring.alerting.engine import mail
from monitoring.alerting.services.mail import (
    mail_settings_get,
    panel_link,
    record_failure,
    smtp_config,
)
from monitoring.models import AlertRecord, MailSettings, MailState, SentMail

MAILS_PER_HOUR = 20
KEEP_LOG = timedelta(days=2)
LOCK_KEY = "alerting-outbox"
LOCK_SECONDS = 300  # longer than a round of slow servers; a crashed round frees it later


@dataclass(frozen=True)
class Event:
    """One alert raised or cleared, waiting for its mail."""

    alert: AlertRecord
    cleared: bool

    @property
    def at(self) -> datetime:
        """When it happened."""
        stamp = self.alert.cleared_at if self.cleared else self.alert.raised_at
        assert stamp is not None
        return stamp

    @property
    def headline(self) -> str:
        """One line naming the event."""
        if self.cleared:
            return f"Cleared: {self.alert.title}"
        return f"{self.alert.get_level_display().upper()}: {self.alert.title}"


def pending_events() -> list[Event]:
    """Events whose mail is due, oldest first."""
    rows = AlertRecord.objects.filter(
        Q(raise_mail=MailState.PENDING) | Q(clear_mail=MailState.PENDING)
    )
    events = [Event(r, False) for r in rows if r.raise_mail == MailState.PENDING]
    events += [Event(r, True) for r in rows if r.clear_mail == MailState.PENDING]
    return sorted(events, key=lambda e: (e.at, e.alert.pk, e.cleared))


def allowance(now: datetime) -> int:
    """Alert mails still allowed in the rolling hour."""
    since = now - timedelta(hours=1)
    used = SentMail.objects.filter(sent_at__gt=since).exclude(kind=SentMail.Kind.TEST).count()
    return max(MAILS_PER_HOUR - used, 0)


def _host() -> str:
    """This machine's name, so an owner of several boxes knows which one wrote."""
    return socket.gethostname()


def compose(event: Event, link: str) -> tuple[str, str]:
    """Subject and body of one event's mail; `link` is the line that leads to the panel."""
    alert = event.alert
    lines = [event.headline, "", alert.text, "", f"Raised: {alert.raised_at:%Y-%m-%d %H:%M %Z}"]
    if event.cleared:
        lines += [f"Cleared: {event.at:%Y-%m-%d %H:%M %Z}", "", "The condition has ended."]
    lines += ["", link]
    return f"[nasui {_host()}] {event.headline}", "\n".join(lines) + "\n"


def compose_digest(events: list[Event], link: str) -> tuple[str, str]:
    """One mail for several events (over the hourly limit), ending with the panel's link."""
    lines = [f"More alert events than the limit of {MAILS_PER_HOUR} mails an hour allows; "
             "here they are together, oldest first.", ""]  # fmt: skip
    for event in events:
        lines += [f"{event.at:%Y-%m-%d %H:%M %Z}  {event.headline}", f"    {event.alert.text}", ""]
    lines.append(link)
    return f"[nasui {_host()}] {len(events)} alert events (digest)", "\n".join(lines) + "\n"


def _mark_sent(events: list[Event]) -> None:
    """Record that these events' mails went out."""
    for event in events:
        field = "clear_mail" if event.cleared else "raise_mail"
        setattr(event.alert, field, MailState.SENT)
        event.alert.save(update_fields=[field])


def _send(config: MailSettings, kind: str, subject: str, body: str, now: datetime) -> None:
    """Send one mail and log it (MailError propagates)."""
    mail.send(smtp_config(config), subject, body)
    SentMail.objects.create(
        sent_at=now, kind=kind, subject=subject[:300], recipients=", ".join(config.to_addresses)
    )
    MailSettings.objects.filter(pk=config.pk).update(last_sent_at=now)


def _mark_off() -> None:
    """E-mail was turned off: waiting events will not be sent later."""
    AlertRecord.objects.filter(raise_mail=MailState.PENDING).update(raise_mail=MailState.OFF)
    AlertRecord.objects.filter(clear_mail=MailState.PENDING).update(clear_mail=MailState.OFF)


def deliver_pending(now: datetime | None = None) -> int:
    """Send what is due within the hourly limit; the number of mails sent."""
    if not cache.add(LOCK_KEY, 1, LOCK_SECONDS):
        return 0  # another round is sending: it would send the same events
    try:
        return _deliver(now or timezone.now())
    finally:
        cache.delete(LOCK_KEY)


def _deliver(now: datetime) -> int:
    """One round of delivery (see the module's rule)."""
    SentMail.objects.filter(sent_at__lt=now - KEEP_LOG).delete()
    config = mail_settings_get()
    if not config.ready:
        _mark_off()
        return 0
    events, budget = pending_events(), allowance(now)
    singles = events if len(events) <= budget else events[: max(budget - 1, 0)]
    rest = events[len(singles) :] if budget else []
    sent, link = 0, panel_link(config)
    try:
        for event in singles:
            _send(config, SentMail.Kind.ALERT, *compose(event, link), now)
            _mark_sent([event])
            sent += 1
        if rest:
            _send(config, SentMail.Kind.DIGEST, *compose_digest(rest, link), now)
            _mark_sent(rest)
            sent += 1
    except mail.MailError as exc:
        record_failure(config, str(exc), now)
    return sent

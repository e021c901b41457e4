"""Alert events through the channels: queued as notices, sent under an hourly limit, retried.

The rules are the mail's: a notice when an alert is raised (at a level the channel gets) and one
when it clears (if its raising was announced); a rise from warning to danger is announced
again. At most PER_HOUR messages a channel in any rolling hour (tests do not count): when more
wait than the hour allows, the last allowed message is a digest of the rest. A failed send is
retried after RETRY_DELAYS; a notice still failing after the last is marked failed and shown on
the channel's page until retried or the channel removed: never silently dropped.
"""

from __future__ import annotations

import socket
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from monitoring.channels.engine import requests, send
from monitoring.channels.engine.message import Message
from monitoring.channels.services.channels import config_of, record_failure, record_success
from monitoring.channels.services.links import panel_link
from monitoring.models import AlertRecord, Channel, Notice

PER_HOUR = 20
RETRY_DELAYS = (60, 300, 900, 3600, 3 * 3600)  # seconds after the 1st, 2nd, ... failed try
LOOK_BACK = timedelta(days=7)  # events older than this are not queued for the first time
KEEP_SENT = timedelta(days=7)
RANK = {"warning": 1, "danger": 2}
LOCK_KEY = "channels-delivery"
LOCK_SECONDS = 300


def queue_events(now: datetime) -> int:
    """Make the notices due for every enabled channel; how many were made."""
    made = 0
    for channel in Channel.objects.filter(enabled=True):
        made += _queue_raised(channel, now) + _queue_cleared(channel, now)
    return made


def _queue_raised(channel: Channel, now: datetime) -> int:
    """A notice per alert raised since the channel was on, or risen to danger since announced."""
    announced = Notice.objects.filter(channel=channel, alert=OuterRef("pk"), cleared=False)
    candidates = AlertRecord.objects.filter(
        level__in=channel.levels, raised_at__gte=max(channel.enabled_at, now - LOOK_BACK)
    ).filter(Q(cleared_at=None) | ~Exists(announced))
    made = 0
    for alert in candidates:
        levels = {
            n.level for n in Notice.objects.filter(channel=channel, alert=alert, cleared=False)
        }
        if levels and max(RANK.get(lv, 0) for lv in levels) >= RANK.get(alert.level, 0):
            continue
        Notice.objects.create(
            channel=channel,
            alert=alert,
            level=alert.level,
            created_at=alert.raised_at if not levels else now,
            next_try_at=now,
        )
        made += 1
    return made


def _queue_cleared(channel: Channel, now: datetime) -> int:
    """A notice per announced alert that has cleared since."""
    announced = Notice.objects.filter(channel=channel, alert=OuterRef("pk"), cleared=False)
    told = Notice.objects.filter(channel=channel, alert=OuterRef("pk"), cleared=True)
    cleared = AlertRecord.objects.filter(cleared_at__gte=now - LOOK_BACK).filter(
        Exists(announced), ~Exists(told)
    )
    for alert in cleared:
        Notice.objects.create(
            channel=channel,
            alert=alert,
            level=alert.level,
            cleared=True,
            created_at=alert.cleared_at or now,
            next_try_at=now,
        )
    return len(cleared)


def message_of(notice: Notice, link: str) -> Message:
    """What one notice says."""
    alert = notice.alert
    return Message(
        title=alert.title,
        text=alert.text,
        level=notice.level,
        host=socket.gethostname(),
        state="cleared" if notice.cleared else "raised",
        link=link,
        key=alert.key,
        raised_at=alert.raised_at.isoformat(),
        cleared_at=alert.cleared_at.isoformat() if notice.cleared and alert.cleared_at else "",
    )


def digest_of(notices: list[Notice], link: str) -> Message:
    """One message for several events, oldest first."""
    lines = [f"More alert events than {PER_HOUR} messages an hour allow; here they are together."]
    for notice in notices:
        headline = message_of(notice, "").headline
        lines.append(f"{notice.created_at:%Y-%m-%d %H:%M %Z}  {headline}")
    worst = max((n.level for n in notices), key=lambda lv: RANK.get(lv, 0))
    return Message(
        title=f"{len(notices)} alert events (digest)",
        text="\n".join(lines),
        level=worst,
        state="digest",
        host=socket.gethostname(),
        link=link,
    )


def sent_in_hour(channel: Channel, now: datetime) -> int:
    """Messages sent in the rolling hour: single notices, and each digest once."""
    recent = Notice.objects.filter(
        channel=channel, state=Notice.State.SENT, sent_at__gt=now - timedelta(hours=1)
    )
    singles = recent.filter(in_digest=False).count()
    digests = recent.filter(in_digest=True).values("sent_at").distinct().count()
    return singles + digests


def deliver_pending(now: datetime | None = None) -> int:
    """Queue what is due and send it, channel by channel; the number of messages sent."""
    if not cache.add(LOCK_KEY, 1, LOCK_SECONDS):
        return 0  # another round is sending the same notices
    try:
        now = now or timezone.now()
        queue_events(now)
        Notice.objects.filter(state=Notice.State.SENT, sent_at__lt=now - KEEP_SENT).delete()
        link = panel_link()
        return sum(_deliver(channel, now, link) for channel in Channel.objects.filter(enabled=True))
    finally:
        cache.delete(LOCK_KEY)


def _deliver(channel: Channel, now: datetime, link: str) -> int:
    """One channel's round: singles while the hour allows, the rest in a digest."""
    due = list(
        Notice.objects.filter(
            channel=channel, state=Notice.State.PENDING, next_try_at__lte=now
        ).select_related("alert")
    )
    if not due:
        return 0
    budget = max(PER_HOUR - sent_in_hour(channel, now), 0)
    singles = due if len(due) <= budget else due[: max(budget - 1, 0)]
    rest = due[len(singles) :] if budget else []
    config, sent = config_of(channel), 0
    try:
        for notice in singles:
            send.send(requests.build(channel.kind, config, message_of(notice, link)))
            _mark_sent([notice], now, in_digest=False)
            sent += 1
        if rest:
            send.send(requests.build(channel.kind, config, digest_of(rest, link)))
            _mark_sent(rest, now, in_digest=True)
            sent += 1
    except send.DeliveryError as exc:
        _failed([n for n in due if n.state == Notice.State.PENDING], str(exc), now)
        record_failure(channel, str(exc))
        return sent
    record_success(channel)
    return sent


def _mark_sent(notices: list[Notice], now: datetime, *, in_digest: bool) -> None:
    """These notices went out."""
    for notice in notices:
        notice.state, notice.sent_at, notice.in_digest = Notice.State.SENT, now, in_digest
        notice.attempts += 1
        notice.save(update_fields=["state", "sent_at", "in_digest", "attempts"])


def _failed(notices: list[Notice], error: str, now: datetime) -> None:
    """A try failed for these: wait the next delay, or give up after the last."""
    for notice in notices:
        notice.attempts += 1
        notice.last_error = error
        if notice.attempts > len(RETRY_DELAYS):
            notice.state = Notice.State.FAILED
        else:
            notice.next_try_at = now + timedelta(seconds=RETRY_DELAYS[notice.attempts - 1])
        notice.save(update_fields=["attempts", "last_error", "state", "next_try_at"])


def notices_retry(channel: Channel) -> int:
    """Send the channel's failed notices again at the next round; how many."""
    return Notice.objects.filter(channel=channel, state=Notice.State.FAILED).update(
        state=Notice.State.PENDING, attempts=0, next_try_at=timezone.now(), last_error=""
    )

"""Channel reads for the pages and the API: each channel with what waits and what failed."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from monitoring.channels.engine.kinds import KINDS
from monitoring.channels.engine.send import where
from monitoring.models import Channel, Notice

FAILED_SHOWN = 50


def channels() -> QuerySet[Channel]:
    """Every channel with its counts of waiting and failed notices."""
    return Channel.objects.annotate(
        waiting=Count("notices", filter=Q(notices__state=Notice.State.PENDING)),
        failed=Count("notices", filter=Q(notices__state=Notice.State.FAILED)),
    ).order_by("name")


def failed_notices(channel: Channel) -> QuerySet[Notice]:
    """The channel's notices that could not be delivered, newest first."""
    return (
        Notice.objects.filter(channel=channel, state=Notice.State.FAILED)
        .select_related("alert")
        .order_by("-created_at")
    )


@dataclass(frozen=True)
class Target:
    """Where a channel sends, in words that give no secret away."""

    text: str
    stored_secrets: list[str]


def target_of(channel: Channel) -> Target:
    """ "ntfy at https://ntfy.sh", "Telegram chat -100…", a webhook's host only."""
    url = channel.secrets.get("url") or channel.options.get("server") or ""
    text = where(url) if url else ""
    if channel.kind == "telegram":
        text = f"chat {channel.options.get('chat_id', '')}"
    label = KINDS[channel.kind].label if channel.kind in KINDS else channel.kind
    return Target(f"{label} {text}".strip(), sorted(channel.secrets))

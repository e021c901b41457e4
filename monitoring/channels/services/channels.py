"""Making, changing and removing channels; a test message sent at once."""

from __future__ import annotations

import socket
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from monitoring.channels import validation
from monitoring.channels.engine import requests, send
from monitoring.channels.engine.kinds import KINDS
from monitoring.channels.engine.message import Message
from monitoring.channels.services.links import panel_link
from monitoring.models import Channel
from nasui.validation import fail

MAX_CHANNELS = 50


def _name(name: str, pk: int | None) -> str:
    """1-100 characters, unique."""
    name = name.strip()
    if not name or len(name) > 100:
        raise fail("name", "Give the channel a name of 1-100 characters.")
    others = Channel.objects.exclude(pk=pk) if pk is not None else Channel.objects.all()
    if others.filter(name=name).exists():
        raise fail("name", f"A channel called “{name}” exists already.")
    return name


def _kind(kind: str) -> str:
    """One of the known kinds."""
    if kind not in KINDS:
        raise fail("kind", "Choose one of: " + ", ".join(KINDS) + ".")
    return kind


def channel_create(
    *, name: str, kind: str, levels: list[str], enabled: bool = True, **config: Any
) -> Channel:
    """A new channel; its settings checked by its kind's rules."""
    if Channel.objects.count() >= MAX_CHANNELS:
        raise fail("name", f"At most {MAX_CHANNELS} channels.")
    row = Channel(name=_name(name, None), kind=_kind(kind), enabled=enabled)
    row.levels = validation.check_levels(levels)
    row.options, row.secrets = validation.split_config(kind, config, {})
    row.enabled_at = timezone.now()
    return _save(row)


def channel_update(channel: Channel, *, forget: Collection[str] = (), **changes: Any) -> Channel:
    """Change what was given; an omitted or empty secret keeps the stored one, `forget` drops it."""
    row = Channel.objects.get(pk=channel.pk)
    if "name" in changes:
        row.name = _name(changes.pop("name"), row.pk)
    kind = _kind(changes.pop("kind", row.kind))
    if "levels" in changes:
        row.levels = validation.check_levels(changes.pop("levels"))
    if "enabled" in changes:
        enabled = bool(changes.pop("enabled"))
        if enabled and not row.enabled:
            row.enabled_at = timezone.now()
        row.enabled = enabled
    stored = {k: v for k, v in row.secrets.items() if k not in forget}
    given = (row.options if kind == row.kind else {}) | changes
    row.kind = kind
    row.options, row.secrets = validation.split_config(kind, given, stored)
    return _save(row)


def _save(row: Channel) -> Channel:
    """Save; a name taken meanwhile is the name's error."""
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError as exc:
        raise fail("name", f"A channel called “{row.name}” exists already.") from exc
    return row


def channel_delete(channel: Channel) -> None:
    """Remove it with its waiting and past notices."""
    channel.delete()


def config_of(channel: Channel) -> dict[str, Any]:
    """Fields and secrets together, as the engine builds requests from them."""
    return dict(channel.options) | dict(channel.secrets)


def send_test(channel: Channel) -> str:
    """Send a test message now with the saved settings; the outcome in words."""
    message = Message(
        title="Test message from nasui",
        level="warning",
        state="test",
        host=socket.gethostname(),
        text="If you read this, alerts will reach you here.",
        link=panel_link(),
    )
    try:
        request = requests.build(channel.kind, config_of(channel), message)
        status = send.send(request)
    except send.DeliveryError as exc:
        record_failure(channel, str(exc))
        raise ValidationError(f"Not delivered: {exc}") from exc
    record_success(channel)
    return f"Test message delivered to {channel.name} (the service answered {status})."


def record_failure(channel: Channel, error: str) -> None:
    """Keep the last error on the channel, for its page."""
    Channel.objects.filter(pk=channel.pk).update(last_error=error, last_error_at=timezone.now())


def record_success(channel: Channel) -> None:
    """A message went out: the last error no longer stands."""
    Channel.objects.filter(pk=channel.pk).update(
        last_sent_at=timezone.now(), last_error="", last_error_at=None
    )

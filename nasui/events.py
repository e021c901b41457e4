"""The panel's event stream: what happened (a job moved, an alert rose or cleared, a pool or a
service changed state), kept briefly in a Redis stream for /api/events/ to hand on.

A Redis stream, not pub/sub: each entry has an id, so a client that reconnects (EventSource
sends Last-Event-ID) gets what it missed, and the JSON view of the same endpoint can answer
"what happened after id X". Publishing never fails the work that publishes: a job must finish
even when Redis is away for a moment.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings

log = logging.getLogger(__name__)

STREAM = "nasui:events"
KEEP = 2000  # entries kept (about: Redis trims in whole nodes)
TYPES = ("job", "alert", "pool", "service")
PUBLISH_TIMEOUT = 0.5  # seconds: a publisher waits no longer than this for Redis


@dataclass(frozen=True)
class Event:
    """One entry: its stream id, its type and its fields."""

    id: str
    type: str
    data: dict[str, Any]


def _url() -> str:
    """The panel's Redis: the cache's (which the tests point elsewhere)."""
    return str(settings.CACHES["default"]["LOCATION"])


# Any: redis-py's stubs type every answer as a union of bytes, str and None
def _client(timeout: float) -> Any:
    """A client answering str, waiting at most `timeout` seconds."""
    return redis.Redis.from_url(
        _url(), socket_timeout=timeout, socket_connect_timeout=timeout, decode_responses=True
    )


_publisher: dict[str, Any] = {}


def publish(event_type: str, /, **data: Any) -> None:
    """Add an event; a Redis that cannot take it is logged, never raised."""
    url = _url()
    client = _publisher.get(url) or _publisher.setdefault(url, _client(PUBLISH_TIMEOUT))
    try:
        client.xadd(STREAM, {"type": event_type, "data": json.dumps(data, default=str)},
                    maxlen=KEEP, approximate=True)  # fmt: skip
    except redis.RedisError as exc:
        log.warning("event %s not published: %s", event_type, exc)


def _parse(entries: list[Any], types: frozenset[str]) -> list[Event]:
    """Stream entries as events of the wanted types."""
    return [
        Event(entry_id, fields["type"], json.loads(fields["data"]))
        for entry_id, fields in entries
        if fields["type"] in types
    ]


def latest_id() -> str:
    """The newest entry's id ("0-0" when empty): a new client starts after it."""
    entries = _client(PUBLISH_TIMEOUT).xrevrange(STREAM, count=1)
    return str(entries[0][0]) if entries else "0-0"


def after(event_id: str, types: frozenset[str], limit: int = 100) -> list[Event]:
    """Up to `limit` events after `event_id`, oldest first."""
    entries = _client(PUBLISH_TIMEOUT).xrange(STREAM, min=f"({event_id}", count=limit)
    return _parse(entries, types)


def recent(types: frozenset[str], limit: int = 50) -> list[Event]:
    """The last `limit` events, oldest first."""
    entries = _client(PUBLISH_TIMEOUT).xrevrange(STREAM, count=limit)
    return _parse(list(reversed(entries)), types)


def follow(event_id: str, types: frozenset[str], wait_seconds: float) -> Iterator[list[Event]]:
    """Batches of events after `event_id` as they come; an empty batch after each quiet
    `wait_seconds` (for the caller's keep-alive). One connection, blocked in Redis meanwhile."""
    client = _client(wait_seconds + 5)
    try:
        while True:
            answer = client.xread({STREAM: event_id}, block=int(wait_seconds * 1000), count=100)
            entries = answer[0][1] if answer else []
            if entries:
                event_id = entries[-1][0]
            yield _parse(entries, types)
    finally:
        client.close()

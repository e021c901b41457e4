"""GET /api/events/: the event stream as Server-Sent Events, or as JSON for a plain GET.

`Accept: text/event-stream` (EventSource, `curl -N -H 'Accept: text/event-stream'`) keeps the
answer open and writes each event as it happens (`id`, `event` = its type, `data` = JSON), a
comment every KEEP_ALIVE seconds, and ends after STREAM_SECONDS (EventSource reconnects with
Last-Event-ID and misses nothing kept). Any other Accept gets JSON: the events after `after`
(or the last ones) and the id to ask after next time. Streams hold a web thread each, so a
process serves at most NASUI_EVENT_STREAMS of them; the next is answered 503 with Retry-After
(pages then poll, as browsers without EventSource do).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import redis
from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui import events

EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")
KEEP_ALIVE = 5.0  # also how soon a closed tab's thread is noticed and freed
STREAM_SECONDS = 600.0
RETRY_MS = 3000
_slots = threading.BoundedSemaphore(1)  # replaced by the configured size on first use
_slots_size = 0
_slots_lock = threading.Lock()


class EventStreamRenderer(BaseRenderer):
    """Lets `Accept: text/event-stream` through content negotiation (the view streams itself)."""

    media_type = "text/event-stream"
    format = "sse"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        """Errors on the stream's URL, as one event a client can read."""
        return f"event: error\ndata: {json.dumps(data)}\n\n".encode()


def _slots_for_process() -> threading.BoundedSemaphore:
    """This process's stream slots, sized by NASUI_EVENT_STREAMS."""
    global _slots, _slots_size
    with _slots_lock:
        if _slots_size != settings.NASUI_EVENT_STREAMS:
            _slots_size = settings.NASUI_EVENT_STREAMS
            _slots = threading.BoundedSemaphore(_slots_size)
        return _slots


def _types(request: Request) -> frozenset[str]:
    """?types=job,alert (default: all)."""
    asked = [t for t in request.query_params.get("types", "").split(",") if t]
    unknown = [t for t in asked if t not in events.TYPES]
    if unknown:
        raise ValidationError({"types": f"Choose from: {', '.join(events.TYPES)}."})
    return frozenset(asked or events.TYPES)


def _after(request: Request) -> str | None:
    """The id to start after: Last-Event-ID (a reconnect) or ?after=."""
    given = request.headers.get("Last-Event-ID") or request.query_params.get("after")
    if given and not EVENT_ID.match(given):
        raise ValidationError({"after": "An event id looks like 1732800000000-0."})
    return given or None


def _frame(event: events.Event) -> bytes:
    """One event in the text/event-stream format."""
    return f"id: {event.id}\nevent: {event.type}\ndata: {json.dumps(event.data)}\n\n".encode()


class _Stream:
    """The open answer: events as they come, keep-alives, then an end the client reconnects
    to. Its slot is given back when Django closes the answer, whether or not it was read."""

    def __init__(
        self, start: str, types: frozenset[str], slots: threading.BoundedSemaphore
    ) -> None:
        self.start, self.types, self.slots = start, types, slots
        self._held = True
        self._lock = threading.Lock()

    def __iter__(self) -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n: connected\n\n".encode()
        deadline = time.monotonic() + STREAM_SECONDS
        try:
            for batch in events.follow(self.start, self.types, KEEP_ALIVE):
                yield b"".join(_frame(e) for e in batch) if batch else b": keep-alive\n\n"
                if time.monotonic() > deadline:
                    return
        except redis.RedisError:
            return  # Redis restarting: the client reconnects and resumes from its last id

    def close(self) -> None:
        """Give the slot back, once."""
        with self._lock:
            if self._held:
                self._held = False
                self.slots.release()


Page = inline_serializer(
    "EventPage",
    {
        "events": serializers.ListField(child=inline_serializer("Event", {
            "id": serializers.CharField(), "type": serializers.ChoiceField(choices=events.TYPES),
            "data": serializers.DictField()})),
        "last_id": serializers.CharField(help_text="Ask with after=<this> for what comes next."),
    },
)  # fmt: skip


class EventsView(APIView):
    """What happens on the box: jobs, alerts, pool and service states."""

    renderer_classes = [JSONRenderer, EventStreamRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "types", str, description="Comma-separated: job, alert, pool, service."
            ),
            OpenApiParameter("after", str, description="An event id: only what came after it."),
        ],
        responses=Page,
        description=__doc__,
    )
    def get(self, request: Request) -> Any:
        """JSON of the events after `after`, or the stream when asked for text/event-stream."""
        types, after = _types(request), _after(request)
        try:
            return self._answer(request, types, after)
        except redis.RedisError:
            answer = Response({"detail": "Redis, which keeps the events, did not answer."}, 503)
            answer["Retry-After"] = "30"
            return answer

    def _answer(self, request: Request, types: frozenset[str], after: str | None) -> Any:
        """The JSON page or the open stream."""
        if request.accepted_renderer.format != "sse":
            found = events.after(after, types) if after else events.recent(types)
            last = found[-1].id if found else (after or events.latest_id())
            return Response({"events": [e.__dict__ for e in found], "last_id": last})
        slots = _slots_for_process()
        if not slots.acquire(blocking=False):
            answer = Response(
                {"detail": "Too many open event streams: try again shortly."}, status=503
            )
            answer["Retry-After"] = "30"
            return answer
        try:
            stream = _Stream(after or events.latest_id(), types, slots)
        except Exception:
            slots.release()
            raise
        response = StreamingHttpResponse(stream, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: hand each event on at once
        return response

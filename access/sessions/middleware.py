"""Note when each signed-in session was last used (at most once a minute: not a write per
request), and drop the note of a session Django no longer knows."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from access.sessions import services

RESOLUTION = 60.0  # seconds
KEY = "nasui_seen"


class SessionSeenMiddleware:
    """After the answer: the session's last use, if a minute has passed since the last note."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if user is None or not user.is_authenticated or session is None or not session.session_key:
            return response
        now = time.time()
        if now - float(session.get(KEY, 0)) >= RESOLUTION:
            session[KEY] = now
            services.seen(session_key=session.session_key, at=timezone.now())
        return response

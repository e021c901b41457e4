"""What a locked-out login sees: the page for people, a JSON error for scripts on /api/."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off, get_cool_off_iso8601
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

STATUS = 429


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' lock-out answer (AXES_LOCKOUT_CALLABLE), shaped like every other answer."""
    cool_off = get_cool_off(request)
    if request.path.startswith("/api/"):
        minutes = int(cool_off.total_seconds() // 60) if cool_off else 0
        wait = f"try again in {minutes} minutes" if minutes else "try again later"
        body = {
            "detail": f"Too many failed logins for this user from your address: {wait}.",
            "code": "locked_out",
            "fields": {},
        }
        return JsonResponse(body, status=STATUS)
    context = {"cooloff_time": get_cool_off_iso8601(cool_off) if cool_off else ""}
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=STATUS)

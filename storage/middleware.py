"""A ZFS failure outside a form (a listing, a detail page) becomes a clear page, not a crash."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from storage.zfs.errors import DatasetNotFound, InvalidProperty, PoolNotFound, ZfsError


class ZfsErrorPageMiddleware:
    """Render storage/unavailable.html with the engine's own words, status 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ZfsError) or request.path.startswith("/api/"):
            return None
        if isinstance(exception, PoolNotFound | DatasetNotFound | InvalidProperty):
            # A name that does not exist (or cannot) is a missing page, not an outage.
            raise Http404(exception.message) from exception
        context = {"error": exception.message, "command": " ".join(exception.argv)}
        return render(request, "storage/unavailable.html", context, status=503)

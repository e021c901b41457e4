"""htmx helpers: one URL, two renderings (full page or partial), and polling control."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

# htmx stops a polling element when the server answers 286.
STOP_POLLING = 286
# The event a job's polled element raises once the job has finished: the page reads again what the
# job changed (templates/partials/refresh_after_jobs.html) and drops its "…started" messages.
JOB_FINISHED = "job-finished"


def is_partial(request: HttpRequest) -> bool:
    """True when htmx asked for a fragment (not a boosted full-page navigation)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.boosted  # type: ignore[union-attr]


def template_for(request: HttpRequest, page: str, partial: str) -> str:
    """The template to render: `page`, or `page#partial` for an htmx fragment request."""
    return f"{page}#{partial}" if is_partial(request) else page


class VaryOnHtmxMiddleware:
    """Caches must keep the partial and the full page of one URL apart."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_vary_headers(response, ["HX-Request"])
        return response

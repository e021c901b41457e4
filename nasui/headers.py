"""Headers every response carries: a Content-Security-Policy, and no caching of private data."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# Scripts only from the panel's own files (no inline code, no eval); inline style attributes
# stay allowed for progress bars and htmx's indicator style. Nothing is loaded from elsewhere:
# the appliance has no internet, and a page that tried would be a page that was tampered with.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


class SecurityHeadersMiddleware:
    """Add the CSP to pages, and `Cache-Control: no-store` to logged-in pages and the API."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        user = getattr(request, "user", None)
        if request.path.startswith("/api/") or (user is not None and user.is_authenticated):
            # Shared or back-button caches must never keep pool names, keys or job output.
            patch_cache_control(response, no_store=True, private=True)
        return response

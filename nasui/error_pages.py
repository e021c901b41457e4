"""Django's own error answers (no view matched, a crash): JSON under /api/, pages elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def _json(status: int, code: str, detail: str) -> JsonResponse:
    """The API's one error body."""
    return JsonResponse({"detail": detail, "code": code, "fields": {}}, status=status)


def _api(request: HttpRequest) -> bool:
    """Scripts talk to /api/: they get JSON, never an HTML page."""
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400 when Django refused a request before any view (a bad host, a suspicious request)."""
    if _api(request):
        return _json(400, "invalid", "Bad request.")
    return defaults.bad_request(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 for a URL no route matches (e.g. /api/sharing/iscsi/portals/x/)."""
    if _api(request):
        return _json(404, "not_found", "Not found.")
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: logged by Django; the client learns only that the panel failed."""
    if _api(request):
        return _json(500, "server_error", "The panel failed while answering; see its log.")
    return defaults.server_error(request)

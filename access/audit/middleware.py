"""Record every change asked of the panel, through its pages or its API, once it is answered.

A change is any request but GET, HEAD and OPTIONS. Sign-ins are recorded by the signals
(access.audit.signals): the login pages and the token endpoint are left out here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from access.audit import services

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
SIGN_IN_VIEWS = frozenset({"login", "login-code", "logout", "api-token"})
NAMED_IN_ANSWER = ("name", "username", "id")  # what a create's answer calls its new object


class AuditMiddleware:
    """After the answer: one audit row for a request that asked for a change."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method not in SAFE:
            match = request.resolver_match
            action = match.view_name if match else "unknown"
            if action.rsplit(":", 1)[-1] not in SIGN_IN_VIEWS:
                self._record(request, response, action)
        return response

    def _record(self, request: HttpRequest, response: HttpResponse, action: str) -> None:
        user = getattr(request, "user", None)
        # DRF authenticates inside the view: its user is on the response's renderer context.
        drf = getattr(response, "renderer_context", None) or {}
        drf_user = getattr(drf.get("request"), "user", None)
        if drf_user is not None and drf_user.is_authenticated:
            user = drf_user
        signed_in = user if user is not None and user.is_authenticated else None
        services.record(
            user=signed_in,
            username=signed_in.get_username() if signed_in is not None else "",
            address=request.META.get("REMOTE_ADDR"),
            via="api" if request.path.startswith("/api/") else "page",
            method=request.method or "",
            action=action,
            target=target_of(request, response),
            path=request.path,
            result=services.result_of(response.status_code),
            status=response.status_code,
        )


def target_of(request: HttpRequest, response: Any) -> str:
    """The object: the URL's arguments, or what a create's answer names."""
    match = request.resolver_match
    kwargs = {k: v for k, v in (match.kwargs if match else {}).items() if k != "format"}
    if kwargs:
        return " ".join(f"{key}={value}" for key, value in kwargs.items())
    data = getattr(response, "data", None)
    if isinstance(data, dict) and response.status_code == 201:
        for key in NAMED_IN_ANSWER:
            if data.get(key) not in (None, ""):
                return f"{key}={data[key]}"
    return ""

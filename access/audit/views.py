"""The audit log page (filtered, newest first, a page at a time) and its CSV export."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render

from access.audit import selectors, services
from access.audit.forms import AuditFilterForm, KeepForm
from nasui.pages import form_page

PAGE_ROWS = 50


def _wanted(request: HttpRequest) -> tuple[AuditFilterForm, selectors.AuditFilter]:
    form = AuditFilterForm(request.GET or None, usernames=selectors.usernames())
    data: dict[str, Any] = form.cleaned_data if form.is_valid() else {}
    wanted = selectors.AuditFilter(
        text=data.get("q", ""),
        username=data.get("user", ""),
        result=data.get("result", ""),
        since=data.get("since"),
        until=data.get("until"),
    )
    return form, wanted


def audit_page(request: HttpRequest) -> HttpResponse:
    """The rows the filter picks, a page at a time."""
    form, wanted = _wanted(request)
    page = Paginator(selectors.entries(wanted), PAGE_ROWS).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode(),
               "keep_days": selectors.keep_days()}  # fmt: skip
    return render(request, "access/audit.html", context)


def audit_csv(request: HttpRequest) -> StreamingHttpResponse:
    """The rows the filter picks, as CSV."""
    _, wanted = _wanted(request)
    response = StreamingHttpResponse(
        selectors.as_csv(selectors.entries(wanted).iterator()), content_type="text/csv"
    )
    response["Content-Disposition"] = 'attachment; filename="nasui-audit.csv"'
    return response


def keep_page(request: HttpRequest) -> HttpResponse:
    """An administrator's: how long the log is kept."""
    return form_page(
        request,
        KeepForm(request.POST or None, initial={"keep_days": selectors.keep_days()}),
        save=lambda data: services.keep_days_set(**data),
        template="access/audit_keep.html",
        done=lambda row: f"The audit log keeps {row.keep_days} days.",
        then="access:audit",
    )

"""Sharing pages."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def index(request: HttpRequest) -> HttpResponse:
    """iSCSI sharing overview."""
    return render(request, "sharing/index.html", {"engine": settings.NASUI_ISCSI_ENGINE})

"""Monitoring pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from nasui.system import host_summary


def index(request: HttpRequest) -> HttpResponse:
    """Live figures of the host."""
    return render(request, "monitoring/index.html", {"host": host_summary()})

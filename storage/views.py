"""Storage pages."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def index(request: HttpRequest) -> HttpResponse:
    """Pools, datasets and zvols overview."""
    return render(request, "storage/index.html", {"engine": settings.NASUI_ZFS_ENGINE})

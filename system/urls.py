"""The system app's URLs: every sub-domain's pages (at /system/) and API (at /api/system/)."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from nasui.api.routes import api_patterns_of
from system.backup_schedules import urls as backup_schedules
from system.backups import urls as backups
from system.certificates import urls as certificates
from system.clock import urls as clock
from system.network import urls as network
from system.updates import urls as updates
from system.ups import urls as ups

SUBDOMAINS = (backups, backup_schedules, certificates, clock, network, updates, ups)

app_name = "system"
urlpatterns = [
    path("", RedirectView.as_view(pattern_name="system:backup"), name="index"),
    *(pattern for urls in SUBDOMAINS for pattern in urls.urlpatterns),
]
api_urlpatterns = api_patterns_of(*SUBDOMAINS)

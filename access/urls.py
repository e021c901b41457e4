"""The access app's URLs: every sub-domain's pages (at /access/) and API (at /api/access/)."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from access.audit import urls as audit
from access.sessions import urls as sessions
from access.twofactor import urls as twofactor
from access.users import urls as users
from nasui.api.routes import api_patterns_of

SUBDOMAINS = (users, twofactor, audit, sessions)

app_name = "access"
urlpatterns = [
    path("", RedirectView.as_view(pattern_name="access:users"), name="index"),
    *(pattern for urls in SUBDOMAINS for pattern in urls.urlpatterns),
]
api_urlpatterns = api_patterns_of(*SUBDOMAINS)

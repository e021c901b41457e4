"""Replication's URLs: every sub-domain's pages (at /replication/) and API (at
/api/replication/)."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from nasui.api.routes import api_patterns_of
from replication.connections import urls as connections
from replication.replications import urls as replications

# The order in which the sub-domains' routes are registered on the API router and listed at
# its root (/api/replication/).
SUBDOMAINS = (connections, replications)

app_name = "replication"
urlpatterns = [
    # Connections are all there is to replication's pages for now: its entry page is their list.
    path("", RedirectView.as_view(pattern_name="replication:connections"), name="index"),
    *(pattern for urls in SUBDOMAINS for pattern in urls.urlpatterns),
]
api_urlpatterns = api_patterns_of(*SUBDOMAINS)

"""Replication's URLs: every sub-domain's pages (at /replication/) and API (at
/api/replication/)."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from nasui.api.routes import api_patterns_of
from replication.connections import urls as connections
from replication.replications import urls as replications
from replication.restores import urls as restores

# The order in which the sub-domains' routes are registered on the API router and listed at
# its root (/api/replication/).
SUBDOMAINS = (connections, replications, restores)

app_name = "replication"
urlpatterns = [
    # The tasks are what replication is for; their page leads to the connections (a tab).
    path("", RedirectView.as_view(pattern_name="replication:tasks"), name="index"),
    *(pattern for urls in SUBDOMAINS for pattern in urls.urlpatterns),
]
api_urlpatterns = api_patterns_of(*SUBDOMAINS)

"""The storage API (mounted at /api/storage/): every sub-domain's views and one router."""

from __future__ import annotations

from nasui.api.routes import api_urlpatterns
from storage.urls import SUBDOMAINS

urlpatterns = api_urlpatterns(*SUBDOMAINS)

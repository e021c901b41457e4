"""An app's API URLs, gathered from its sub-domains' `urls` modules.

Each sub-domain's urls module lists `api_routes` (ViewSets, registered on the app's one router,
so the app keeps a single browsable root) and `api_urlpatterns` (plain API views).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from django.urls import URLPattern, URLResolver
from rest_framework.routers import DefaultRouter

# (URL prefix, ViewSet, basename), as DefaultRouter.register takes them.
Route = tuple[str, Any, str]


def api_patterns_of(*subdomains: ModuleType) -> list[URLPattern | URLResolver]:
    """The plain API views of every sub-domain, then one router with all their ViewSets."""
    router = DefaultRouter()
    for urls in subdomains:
        for prefix, viewset, basename in urls.api_routes:
            router.register(prefix, viewset, basename=basename)
    plain = [pattern for urls in subdomains for pattern in urls.api_urlpatterns]
    return [*plain, *router.urls]

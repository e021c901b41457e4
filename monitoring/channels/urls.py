"""Channel URLs, mounted under the alerts' pages (/alerts/channels/) and API."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import SimpleRouter

from monitoring.channels import api, views

urlpatterns = [
    path("channels/", views.channel_list, name="channels"),
    path("channels/new/", views.channel_create, name="channel-create"),
    path("channels/<int:pk>/", views.channel_edit, name="channel-edit"),
    path("channels/<int:pk>/delete/", views.channel_delete, name="channel-delete"),
    path("channels/<int:pk>/test/", views.channel_test, name="channel-test"),
    path("channels/<int:pk>/retry/", views.channel_retry, name="channel-retry"),
]

_router = SimpleRouter()
_router.register("channels", api.ChannelViewSet, basename="channel")
api_urlpatterns: list[URLPattern | URLResolver] = list(_router.urls)

"""The Services page (mounted at /services/) and the services API (at /api/services/)."""

from __future__ import annotations

from django.urls import path

from sharing.control import api, views

app_name = "services"
urlpatterns = [
    path("", views.services_page, name="index"),
    path("<str:name>/boot/", views.service_boot, name="boot"),
    path("<str:name>/<str:action>/", views.service_action, name="action"),
]
api_urlpatterns = [
    path("", api.ServiceListView.as_view(), name="list"),
    path("<str:name>/", api.ServiceDetailView.as_view(), name="detail"),
    path("<str:name>/<str:action>/", api.ServiceActionView.as_view(), name="action"),
]

"""Alert URLs: the alerts and the e-mail settings, as pages (at /alerts/) and API (/api/alerts/)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import SimpleRouter

from monitoring.alerting import api, views

app_name = "alerts"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:pk>/dismiss/", views.dismiss, name="dismiss"),
    path("badge/", views.badge, name="badge"),
    path("mail/", views.mail_page, name="mail"),
    path("mail/test/", views.mail_test, name="mail-test"),
]

# The alerts are the API's root collection (/api/alerts/, /api/alerts/<id>/): no API root view.
_router = SimpleRouter()
_router.register("", api.AlertViewSet, basename="alert")
api_urlpatterns: list[URLPattern | URLResolver] = [
    path("mail/", api.MailSettingsView.as_view(), name="mail"),
    path("mail/test/", api.MailTestView.as_view(), name="mail-test"),
    *_router.urls,
]

"""The alerts API routes (mounted at /api/alerts/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from monitoring.alerting import api

router = SimpleRouter()
router.register("", api.AlertViewSet, basename="alert")

urlpatterns = [
    path("mail/", api.MailSettingsView.as_view(), name="mail"),
    path("mail/test/", api.MailTestView.as_view(), name="mail-test"),
    *router.urls,
]

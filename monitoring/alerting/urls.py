"""Pages of the alerts section (mounted at /alerts/)."""

from django.urls import path

from monitoring.alerting import views

app_name = "alerts"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:pk>/dismiss/", views.dismiss, name="dismiss"),
    path("mail/", views.mail_page, name="mail"),
    path("mail/test/", views.mail_test, name="mail-test"),
]

"""The Services page (mounted at /services/): iSCSI, SMB and NFS in one place."""

from django.urls import path

from sharing.control import views as services

app_name = "services"
urlpatterns = [
    path("", services.services_page, name="index"),
    path("<str:name>/boot/", services.service_boot, name="boot"),
    path("<str:name>/<str:action>/", services.service_action, name="action"),
]

"""Certificate URLs: the page (at /system/certificate/) and the API (at /api/system/)."""

from __future__ import annotations

from django.urls import path

from nasui.api.routes import Route
from system.certificates import api, views

urlpatterns = [
    path("certificate/", views.certificate_page, name="certificate"),
    path("certificate/self-signed/", views.certificate_self_signed, name="certificate-self-signed"),
]
api_routes: list[Route] = []
api_urlpatterns = [
    path("certificate/", api.CertificateView.as_view(), name="certificate"),
    path("certificate/self-signed/", api.SelfSignedView.as_view(), name="certificate-self-signed"),
]

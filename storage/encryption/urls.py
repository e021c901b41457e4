"""Encryption URLs: a root's page (lock, unlock, change the key) and the encryption API."""

from __future__ import annotations

from django.urls import URLPattern, path

from storage.encryption import api, views

urlpatterns = [path("encryption/<path:name>/", views.encryption_page, name="encryption")]
api_routes = [("encryption", api.EncryptionViewSet, "encryption")]
api_urlpatterns: list[URLPattern] = []

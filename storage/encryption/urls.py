"""Encryption URLs: the encryption API (its pages come with the datasets' and zvols')."""

from __future__ import annotations

from django.urls import URLPattern

from storage.encryption import api

urlpatterns: list[URLPattern] = []
api_routes = [("encryption", api.EncryptionViewSet, "encryption")]
api_urlpatterns: list[URLPattern] = []

"""The sharing app."""

from django.apps import AppConfig


class SharingConfig(AppConfig):
    """Sharing section of the panel."""

    name = "sharing"
    default_auto_field = "django.db.models.BigAutoField"

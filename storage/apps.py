"""The storage app."""

from django.apps import AppConfig


class StorageConfig(AppConfig):
    """Storage section of the panel."""

    name = "storage"
    default_auto_field = "django.db.models.BigAutoField"

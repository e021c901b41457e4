"""The monitoring app."""

from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    """Monitoring section of the panel."""

    name = "monitoring"
    default_auto_field = "django.db.models.BigAutoField"

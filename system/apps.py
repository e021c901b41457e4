"""The system app: the appliance looking after itself (config backup and restore; to come:
updates, network, time, certificates)."""

from django.apps import AppConfig


class SystemConfig(AppConfig):
    """The box's own settings and lifecycle, above every other app."""

    name = "system"
    default_auto_field = "django.db.models.BigAutoField"

"""The system app: the appliance looking after itself (config backup and restore; to come:
updates, network, time, certificates)."""

from django.apps import AppConfig


class SystemConfig(AppConfig):
    """The box's own settings and lifecycle, above every other app."""

    name = "system"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the UPS's alerts (on battery, battery low) with monitoring."""
        from monitoring.alerting.selectors.registry import register
        from system.ups.selectors import ups_alerts

        register("ups")(ups_alerts)

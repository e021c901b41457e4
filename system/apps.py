"""The system app: the appliance looking after itself (config backup and restore; to come:
updates, network, time, certificates)."""

from django.apps import AppConfig


class SystemConfig(AppConfig):
    """The box's own settings and lifecycle, above every other app."""

    name = "system"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the UPS's alerts (on battery, battery low) and figures with monitoring."""
        from monitoring.alerting.selectors.registry import register
        from monitoring.metrics.services import register_source
        from system.ups.selectors import ups_alerts, ups_gauges

        register("ups")(ups_alerts)
        register_source("ups", ups_gauges)  # charge, runtime, load, voltage in the graphs

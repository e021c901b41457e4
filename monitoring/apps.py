"""The monitoring app: metrics (samples, rollups, graphs) and alerts (raised, mailed)."""

from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    """Monitoring section of the panel."""

    name = "monitoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Show the open alerts on the navigation's Alerts entry (models are loaded now)."""
        from monitoring.alerting import selectors
        from nasui.context_processors import register_badge

        register_badge("alerts:index", selectors.badge_count)

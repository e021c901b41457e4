"""The sharing app."""

from django.apps import AppConfig


class SharingConfig(AppConfig):
    """Sharing section of the panel."""

    name = "sharing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the shares with storage's usage registry, so it refuses to destroy them."""
        from sharing import holders

        holders.register()

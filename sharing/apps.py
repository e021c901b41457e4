"""The sharing app."""

from django.apps import AppConfig


class SharingConfig(AppConfig):
    """Sharing section of the panel."""

    name = "sharing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Give storage the shares that hold its objects and the accounts that may own them."""
        from sharing import holders, owners

        holders.register()
        owners.register()

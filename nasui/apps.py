"""The core app: accounts, API tokens, jobs, health."""

from django.apps import AppConfig


class NasuiConfig(AppConfig):
    """Core of the panel: login, tokens, jobs and the shared layout."""

    name = "nasui"
    verbose_name = "nasui core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Bind the Celery app, so that `.delay()` from web requests uses its Redis broker, and
        watch the admin's password hash for the appliance's first-boot password."""
        from django.conf import settings
        from django.db.models.signals import post_save

        from nasui import celery  # noqa: F401
        from nasui.first_password import admin_hash_changed

        post_save.connect(
            admin_hash_changed, sender=settings.AUTH_USER_MODEL, dispatch_uid="first-password"
        )

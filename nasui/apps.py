"""The core app: accounts, API tokens, jobs, health."""

from django.apps import AppConfig


class NasuiConfig(AppConfig):
    """Core of the panel: login, tokens, jobs and the shared layout."""

    name = "nasui"
    verbose_name = "nasui core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Bind the Celery app, so that `.delay()` from web requests uses its Redis broker."""
        from nasui import celery  # noqa: F401

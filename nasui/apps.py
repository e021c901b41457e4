"""The core app: accounts, API tokens, jobs, health."""

from django.apps import AppConfig


class NasuiConfig(AppConfig):
    """Core of the panel: login, tokens, jobs and the shared layout."""

    name = "nasui"
    verbose_name = "nasui core"
    default_auto_field = "django.db.models.BigAutoField"

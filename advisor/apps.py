"""The advisor app."""

from django.apps import AppConfig


class AdvisorConfig(AppConfig):
    """The "Try it on my data" app: estimates, settings benchmarks and fio runs."""

    name = "advisor"
    default_auto_field = "django.db.models.BigAutoField"

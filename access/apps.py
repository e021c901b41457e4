from django.apps import AppConfig


class AccessConfig(AppConfig):
    """Who may use the panel and what each may change: panel users and their roles."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "access"
    verbose_name = "Access"

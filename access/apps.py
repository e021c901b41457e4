from django.apps import AppConfig


class AccessConfig(AppConfig):
    """Who may use the panel and what each may change: panel users and their roles."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "access"
    verbose_name = "Access"

    def ready(self) -> None:
        """Sign-ins go to the audit log and the list of signed-in sessions."""
        from access.audit import signals  # noqa: F401
        from access.sessions import signals as session_signals  # noqa: F401

"""The core app: accounts, API tokens, jobs, health."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.apps import AppConfig


class NasuiConfig(AppConfig):
    """Core of the panel: login, tokens, jobs and the shared layout."""

    name = "nasui"
    verbose_name = "nasui core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Bind the Celery app, so that `.delay()` from web requests uses its Redis broker, and
        watch the admin's password hash for the appliance's first-boot password, and keep the
        database file to its owner."""
        from django.conf import settings
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_save

        from nasui import celery  # noqa: F401
        from nasui.first_password import admin_hash_changed

        post_save.connect(
            admin_hash_changed, sender=settings.AUTH_USER_MODEL, dispatch_uid="first-password"
        )
        connection_created.connect(database_owner_only, dispatch_uid="database-owner-only")


def database_owner_only(sender: Any, connection: Any, **_: Any) -> None:
    """An SQLite database holds CHAP and SMTP secrets: readable by its owner only (SQLite gives
    its -wal and -shm files the database file's mode)."""
    if connection.vendor != "sqlite":
        return
    path = Path(str(connection.settings_dict["NAME"]))
    if path.is_file() and path.stat().st_mode & 0o077:
        path.chmod(0o600)

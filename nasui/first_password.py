"""The first-boot admin password while it is in use: checked when the admin's hash changes.

A login re-hashes the first-boot password (its light hash is upgraded) and a change of password
replaces it; either way the web hands the check to the worker, which remembers the new hash or
forgets the password at once, so the next boot needs no PBKDF2 (see nasui.lib.first_password).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.db import transaction
from kombu.exceptions import OperationalError

from nasui.celery import send
from nasui.lib import first_password as files

ADMIN = "admin"
logger = logging.getLogger(__name__)


def password_file() -> Path:
    """This installation's first-boot password file (present on the appliance only)."""
    return Path(settings.DATA_DIR) / files.PASSWORD_FILE


def password_to_show(path: Path) -> str:
    """The first-boot password while it is still the admin's, else "" (and it is forgotten)."""
    if not path.exists():
        return ""
    admin = get_user_model().objects.filter(username=ADMIN).first()
    known = files.known_password(path, admin.password if admin else None)
    if known is not None:
        return known
    password = path.read_text().strip()
    # hashers.check_password, not the user's: it never re-hashes and saves.
    if admin is not None and check_password(password, admin.password):
        files.remember(path, admin.password)
        return password
    files.forget(path)
    return ""


def admin_hash_changed(sender: Any, instance: Any, update_fields: Any = None, **_: Any) -> None:
    """post_save of a user: a new admin hash while the first-boot password is kept is checked."""
    if instance.username != ADMIN:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    path = password_file()
    if path.exists() and files.known_password(path, instance.password) is None:
        transaction.on_commit(_hand_to_worker)


def _hand_to_worker() -> None:
    """Queue the check; without a broker the next boot checks instead (never fail a login)."""
    try:
        send("nasui.recheck_first_password")
    except (OSError, OperationalError):
        logger.warning("first-boot password: no worker reachable, the next boot checks it")

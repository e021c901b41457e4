"""The database holds CHAP and SMTP secrets: only its owner may read it."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from django.db import connection

from nasui.apps import database_owner_only


def test_a_new_connection_makes_the_database_owner_only(tmp_path):
    path = tmp_path / "nasui.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE t (x)")
    path.chmod(0o644)  # as a umask of 022 leaves it
    fake = type("Connection", (), {"vendor": "sqlite", "settings_dict": {"NAME": str(path)}})()
    database_owner_only(sender=None, connection=fake)
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_memory_database_or_another_vendor_is_left_alone(tmp_path):
    for vendor, name in (("sqlite", ":memory:"), ("postgresql", str(tmp_path))):
        fake = type("Connection", (), {"vendor": vendor, "settings_dict": {"NAME": name}})()
        database_owner_only(sender=None, connection=fake)  # no error, nothing changed
    assert tmp_path.stat().st_mode & 0o777 != 0o600


@pytest.mark.django_db
def test_the_suites_own_database_is_owner_only():
    from pathlib import Path

    connection.ensure_connection()
    path = Path(connection.settings_dict["NAME"])
    assert path.stat().st_mode & 0o777 == 0o600

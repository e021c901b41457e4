"""Reads about config archives: what one holds, from its own database, before it is restored.

The archive's database is read with SQLite itself (it is a file of this panel's schema, maybe
an older one), through the table names of this panel's models: each count or name list
tolerates a table the archive does not have yet.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.db.migrations.loader import MigrationLoader

# What the summary counts: a label for the user -> the model (app label, name).
COUNTED = {
    "SMB shares": ("sharing", "SmbShare"),
    "NFS exports": ("sharing", "NfsShare"),
    "Users": ("sharing", "LocalUser"),
    "iSCSI targets": ("sharing", "Target"),
    "Snapshot tasks": ("storage", "SnapshotTask"),
    "Replication tasks": ("replication", "ReplicationTask"),
    "SSH connections": ("replication", "SshConnection"),
}
# The columns that name datasets or zvols: their first component names a pool.
NAMING = (
    ("sharing", "SmbShare", "dataset"),
    ("sharing", "NfsShare", "dataset"),
    ("sharing", "Extent", "zvol"),
    ("storage", "SnapshotTask", "dataset"),
    ("replication", "ReplicationTask", "source"),
)


@dataclass(frozen=True)
class Summary:
    """What an archive would bring back."""

    version: str
    host: str
    made: str
    counts: dict[str, int]
    pools: list[str]
    unknown_migrations: list[str]  # migrations this panel does not have: a newer nasui's


@contextmanager
def opened_database(data: bytes) -> Iterator[sqlite3.Connection]:
    """The archive's database bytes as a read-only SQLite connection."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "archive.sqlite3"
        path.write_bytes(data)
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            yield db


def summarize(db: sqlite3.Connection) -> tuple[dict[str, int], list[str], list[str]]:
    """(counts by label, pools named, migrations unknown here) of an archive's database."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    counts = {}
    for label, (app, model) in COUNTED.items():
        table = apps.get_model(app, model)._meta.db_table
        counts[label] = _count(db, table) if table in tables else 0
    pools: set[str] = set()
    for app, model, column in NAMING:
        table = apps.get_model(app, model)._meta.db_table
        if table in tables:  # names from this panel's models, never from the archive
            rows = db.execute(f'SELECT "{column}" FROM "{table}"')  # noqa: S608
            pools.update(str(name).split("/")[0] for (name,) in rows if name)
    return counts, sorted(pools), _unknown_migrations(db, tables)


def _count(db: sqlite3.Connection, table: str) -> int:
    return int(db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])  # noqa: S608


def _unknown_migrations(db: sqlite3.Connection, tables: set[str]) -> list[str]:
    """The archive's applied migrations that this panel's code does not have."""
    if "django_migrations" not in tables:
        return []
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    applied = db.execute("SELECT app, name FROM django_migrations ORDER BY app, name")
    return [f"{app}.{name}" for app, name in applied if (app, name) not in known]

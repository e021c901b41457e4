"""Config backups: make an archive, see what one holds, stage it to be restored at the next start.

The passphrase is used and forgotten: it seals (or opens) the archive in this request and is
kept nowhere. The archive's files are those of engine/files.py; its database is this panel's,
the monitoring history left out (not configuration, and most of the file after a year).
"""

from __future__ import annotations

import socket
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from nasui.validation import fail, refusal
from system.backups import selectors
from system.backups.engine import archive, files
from system.backups.engine.archive import ArchiveError, WrongPassphrase
from system.backups.selectors import Summary

MAX_ARCHIVE = 256 << 20  # a year of configuration is a few MiB; history is left out
# History, not configuration: emptied in the archive's copy of the database.
HISTORY = (("monitoring", "Sample"), ("monitoring", "Rollup"))


@dataclass(frozen=True)
class Download:
    """An archive to hand to the user: its file name and bytes."""

    name: str
    data: bytes


def backup_make(*, passphrase: str) -> Download:
    """This box's config archive, sealed with the passphrase (which is not kept)."""
    return archive_for(recipient_of(passphrase))


def recipient_of(passphrase: str, salt: bytes | None = None) -> archive.Recipient:
    """What a passphrase gives that may be kept, or a ValidationError on `passphrase`."""
    try:
        return archive.recipient(passphrase, salt)
    except ArchiveError as exc:
        raise fail("passphrase", str(exc)) from exc


def archive_for(to: archive.Recipient) -> Download:
    """The archive of this box now, sealed for `to`."""
    now = datetime.now(UTC)
    about = archive.About(settings.NASUI_VERSION, socket.gethostname(), now.isoformat())
    emptied = [apps.get_model(app, model)._meta.db_table for app, model in HISTORY]
    members = files.gather(Path(settings.DATA_DIR), database_path(), emptied)
    name = f"nasui-config-{socket.gethostname()}-{now:%Y%m%d-%H%M%S}.nasui"
    return Download(name, archive.seal(members, to, about))


def backup_inspect(*, data: bytes, passphrase: str) -> Summary:
    """What the archive holds, or a ValidationError naming the field and the reason."""
    return _summary(_opened(data, passphrase))


def restore_prepare(*, data: bytes, passphrase: str) -> Summary:
    """Check the archive as backup_inspect does and write it beside the data, waiting for
    restore_confirm: the user sees what it holds first. Nothing live changes."""
    contents = _opened(data, passphrase)
    summary = _summary(contents)
    try:
        files.stage(contents.members, Path(settings.DATA_DIR), ready=False)
    except (files.UnknownMember, OSError) as exc:
        raise fail("archive", str(exc)) from exc
    return summary


def restore_confirm() -> None:
    """The prepared archive replaces this box's configuration at the panel's next start."""
    if not files.confirm(Path(settings.DATA_DIR)):
        raise refusal("No archive is waiting: upload it and type its passphrase first.")


def restore_cancel() -> None:
    """Forget a prepared or confirmed restore."""
    files.discard(Path(settings.DATA_DIR))


def restore_stage(*, data: bytes, passphrase: str) -> Summary:
    """Prepare and confirm at once (the API's restore): applied at the next start."""
    summary = restore_prepare(data=data, passphrase=passphrase)
    restore_confirm()
    return summary


def restore_staged() -> bool:
    """Whether a confirmed restore waits for the next start."""
    return files.staged(Path(settings.DATA_DIR))


def archive_bytes(upload: UploadedFile) -> bytes:
    """An uploaded archive's bytes, or a ValidationError on `archive` when it is too big."""
    if upload.size is not None and upload.size > MAX_ARCHIVE:
        raise fail("archive", f"A config archive is at most {MAX_ARCHIVE >> 20} MiB.")
    return bytes(upload.read())


def database_path() -> Path:
    """The SQLite file of this panel (the archive's database member)."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        raise refusal(
            "Config backups need the panel's own SQLite database (NASUI_DATABASE_URL "
            "names another one)."
        )
    return Path(database["NAME"])


def _opened(data: bytes, passphrase: str) -> archive.Contents:
    try:
        contents = archive.open_archive(data, passphrase)
        files.check_members(contents.members)
    except WrongPassphrase as exc:
        raise fail("passphrase", str(exc)) from exc
    except (ArchiveError, files.UnknownMember) as exc:
        raise fail("archive", str(exc)) from exc
    return contents


def _summary(contents: archive.Contents) -> Summary:
    try:
        with selectors.opened_database(contents.members[files.DATABASE]) as db:
            counts, pools, unknown = selectors.summarize(db)
    except sqlite3.DatabaseError as exc:
        raise fail("archive", f"The archive's database cannot be read: {exc}.") from exc
    if unknown:
        raise fail("archive", "This archive was made by a newer nasui (its database has "
                   f"{', '.join(unknown[:3])}): update this box first.")  # fmt: skip
    about = contents.about
    return Summary(about.version, about.host, about.made, counts, pools, unknown)

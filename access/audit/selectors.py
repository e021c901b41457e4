"""Reads of the audit log: the rows a filter picks, newest first, and their CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from access.audit.models import AuditEntry, AuditSettings

CSV_COLUMNS = ("at", "username", "address", "via", "method", "action", "target", "path",
               "result", "status")  # fmt: skip


@dataclass(frozen=True)
class AuditFilter:
    """What to look for: any word in the action, object, path or user; a user; a result; days."""

    text: str = ""
    username: str = ""
    result: str = ""
    since: date | None = None
    until: date | None = None


def entries(wanted: AuditFilter) -> QuerySet[AuditEntry]:
    """The rows the filter picks, newest first."""
    rows = AuditEntry.objects.all()
    for word in wanted.text.split():
        rows = rows.filter(
            Q(action__icontains=word) | Q(target__icontains=word) | Q(path__icontains=word)
            | Q(username__icontains=word)
        )  # fmt: skip
    if wanted.username:
        rows = rows.filter(username=wanted.username)
    if wanted.result:
        rows = rows.filter(result=wanted.result)
    if wanted.since:
        rows = rows.filter(at__gte=_day_start(wanted.since))
    if wanted.until:
        rows = rows.filter(at__lt=_day_start(wanted.until) + timedelta(days=1))
    return rows


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def usernames() -> list[str]:
    """Every user name in the log, for the filter's choices."""
    names = AuditEntry.objects.exclude(username="").values_list("username", flat=True)
    return sorted(set(names))


def keep_days() -> int:
    """How many days the log keeps its rows."""
    return AuditSettings.load().keep_days


def as_csv(rows: Iterable[AuditEntry]) -> Iterator[str]:
    """The rows as CSV lines (a header first), streamed."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Iterable[object]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(values)
        return buffer.getvalue()

    yield line(CSV_COLUMNS)
    for row in rows:
        yield line(_cell(getattr(row, column)) for column in CSV_COLUMNS)


def _cell(value: object) -> object:
    """A cell; text a spreadsheet would run as a formula is quoted (CSV injection)."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return "" if value is None else value

"""Naming schemas of periodic snapshots: strftime fields that make each name unique."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from storage.zfs.errors import DatasetExists
from storage.zfs.snapshots import snapshot_name_problem

# SMB's "Previous versions" lists the snapshots named this way (sharing/smb/render.py).
DEFAULT_SCHEMA = "auto-%Y-%m-%d_%H-%M"
# A scheduled run's name must differ from every other run's: down to the minute.
REQUIRED = ("%Y", "%m", "%d", "%H", "%M")
ALLOWED = {"%Y", "%m", "%d", "%H", "%M", "%S", "%y", "%j"}
_CODE = re.compile(r"%.")
# Two snapshots named for the same time (a manual one in the same second, or two tasks on
# nested datasets in the same minute): the second is name-2, the third name-3, and so on.
# Samba's shadow_copy2 reads the time at the start of a name with strptime and ignores what
# follows, so Previous Versions lists these too; pruning reads the slot without the suffix.
_SUFFIX = re.compile(r"-([2-9]|[1-9][0-9]+)$")
MAX_SUFFIX = 99


def codes_problem(schema: str) -> str | None:
    """Why the strftime fields of `schema` cannot be used, or None when they can."""
    unknown = sorted(set(_CODE.findall(schema)) - ALLOWED)
    if unknown:
        return f"{', '.join(unknown)} cannot be used; use {', '.join(sorted(ALLOWED))}."
    return None


def schema_problem(schema: str) -> str | None:
    """Why `schema` cannot name a task's snapshots, or None when it can."""
    codes = set(_CODE.findall(schema))
    unknown = codes_problem(schema)
    if unknown:
        return unknown
    missing = [code for code in REQUIRED if code not in codes]
    if missing:
        return f"Include {', '.join(missing)} so that every run gets its own name."
    problem = snapshot_name_problem(render(schema, datetime(2026, 1, 2, 3, 4, 5)))
    return f"The names it makes are not valid: {problem}" if problem else None


def render(schema: str, moment: datetime) -> str:
    """The snapshot name for a run at `moment` (its wall-clock time: the caller picks UTC)."""
    return moment.strftime(schema)


def matches(schema: str, name: str) -> bool:
    """True when `name` is one this schema makes (a user's own names never are)."""
    return slot_of(schema, name) is not None


def slot_of(schema: str, name: str) -> datetime | None:
    """The UTC time a name of this schema was made for, or None when the schema did not make it.

    A name made unique with a suffix (-2, -3...) has the slot of the name without it.
    """
    for text in dict.fromkeys((name, _SUFFIX.sub("", name))):
        try:
            return datetime.strptime(text, schema).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def candidates(name: str) -> Iterator[str]:
    """name, then name-2, name-3... up to name-99: the names an automatic snapshot may take."""
    yield name
    for number in range(2, MAX_SUFFIX + 1):
        yield f"{name}-{number}"


def take_unique(name: str, create: Callable[[str], None]) -> str:
    """Create the snapshot `name` (short), or the first of name-2, name-3... not taken; the name.

    `create` makes the snapshot of that short name and raises DatasetExists when it exists
    (on the dataset, or on a descendant for a recursive one).
    """
    for candidate in candidates(name):
        try:
            create(candidate)
        except DatasetExists:
            continue
        return candidate
    raise DatasetExists(f"cannot create snapshot '{name}': {MAX_SUFFIX} of that name already exist")

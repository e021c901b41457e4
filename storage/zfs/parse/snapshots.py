"""Parsers for `zfs list -t snapshot` and `zfs diff -H -F`."""

from __future__ import annotations

import re

from storage.zfs.parse.lists import split_rows
from storage.zfs.snapshots import CHANGES, FILE_TYPES, TASK_PROPERTY, DiffEntry, Snapshot

SNAPSHOT_COLUMNS = ("name", "creation", "used", "referenced", "userrefs", "clones", TASK_PROPERTY)
# zfs diff escapes unprintable bytes and spaces in paths as a backslash and 4 octal digits.
_ESCAPE = re.compile(rb"\\(0[0-7]{3})")


def parse_snapshot_list(text: str) -> list[Snapshot]:
    """`zfs list -H -p -t snapshot -o SNAPSHOT_COLUMNS` -> snapshots, in the listed order."""
    snapshots = []
    for row in split_rows(text, SNAPSHOT_COLUMNS):
        clones = row["clones"]
        snapshots.append(
            Snapshot(
                name=row["name"],
                created=int(row["creation"]),
                used=int(row["used"]),
                referenced=int(row["referenced"]),
                holds=int(row["userrefs"]) if row["userrefs"].isdigit() else 0,
                clones=tuple(c for c in clones.split(",") if c) if clones != "-" else (),
                task="" if row[TASK_PROPERTY] == "-" else row[TASK_PROPERTY],
            )
        )
    return snapshots


def unescape_path(text: str) -> str:
    """'/d/sp\\0040ace' -> '/d/sp ace' (octal escapes back to the bytes they stand for)."""
    raw = _ESCAPE.sub(lambda m: bytes([int(m.group(1), 8)]), text.encode())
    return raw.decode("utf-8", errors="surrogateescape")


def parse_zfs_diff(text: str) -> list[DiffEntry]:
    """`zfs diff -H -F` -> entries; a leading timestamp column (-t) is accepted and dropped."""
    entries = []
    for line in text.splitlines():
        fields = line.split("\t")
        if fields and fields[0] not in CHANGES:
            fields = fields[1:]  # the -t timestamp
        if len(fields) < 3 or fields[0] not in CHANGES:
            continue
        change, kind, path, *rest = fields
        entries.append(
            DiffEntry(
                change=CHANGES[change],
                file_type=FILE_TYPES.get(kind, kind),
                path=unescape_path(path),
                new_path=unescape_path(rest[0]) if rest else "",
            )
        )
    return entries

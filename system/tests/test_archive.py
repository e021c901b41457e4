"""The config archive's format: a round trip, and every way an archive is refused."""

from __future__ import annotations

import pytest

from system.backups.engine import archive
from system.backups.engine.archive import (
    About,
    ArchiveError,
    Damaged,
    NotAnArchive,
    TooNew,
    Truncated,
    WrongPassphrase,
)

ABOUT = About(version="0.3.0", host="nasui", made="2026-11-27T03:00:00+00:00")
MEMBERS = {
    "db.sqlite3": b"SQLite format 3\0" + bytes(range(256)) * 40,
    "secret_key": b"k" * 50,
    "ssh/host_key": b"-----BEGIN OPENSSH PRIVATE KEY-----\n",
}
PASSPHRASE = "correct horse battery"


@pytest.fixture(scope="module")
def sealed() -> bytes:
    return archive.seal(MEMBERS, archive.recipient(PASSPHRASE), ABOUT)


def test_what_is_sealed_opens_with_its_passphrase(sealed: bytes) -> None:
    opened = archive.open_archive(sealed, PASSPHRASE)
    assert opened.members == MEMBERS
    assert opened.about == ABOUT


def test_the_members_are_not_readable_in_the_file(sealed: bytes) -> None:
    assert b"SQLite format 3" not in sealed
    assert b"OPENSSH PRIVATE KEY" not in sealed
    assert b"k" * 50 not in sealed


def test_who_made_it_is_read_without_the_passphrase(sealed: bytes) -> None:
    assert archive.peek(sealed) == ABOUT


def test_a_wrong_passphrase_is_said_as_such(sealed: bytes) -> None:
    with pytest.raises(WrongPassphrase, match="Wrong passphrase"):
        archive.open_archive(sealed, "correct horse battery!")


@pytest.mark.parametrize("keep", [5, 18, 40, -1])
def test_a_cut_short_archive_is_truncated(sealed: bytes, keep: int) -> None:
    with pytest.raises(Truncated, match="cut short"):
        archive.open_archive(sealed[:keep], PASSPHRASE)


def test_a_changed_byte_in_the_sealed_part_is_damage_not_a_wrong_passphrase(sealed: bytes) -> None:
    changed = bytearray(sealed)
    changed[-100] ^= 1
    with pytest.raises(Damaged, match="do not match its seal"):
        archive.open_archive(bytes(changed), PASSPHRASE)


def test_a_changed_header_is_damage(sealed: bytes) -> None:
    # The version it names is sealed with the contents: claiming another one breaks the seal.
    forged = sealed.replace(b'"version": "0.3.0"', b'"version": "0.9.0"')
    assert forged != sealed
    with pytest.raises(Damaged):
        archive.open_archive(forged, PASSPHRASE)


def test_bytes_after_the_end_are_damage(sealed: bytes) -> None:
    with pytest.raises(Damaged, match="after its end"):
        archive.open_archive(sealed + b"\0", PASSPHRASE)


def test_another_file_is_not_an_archive() -> None:
    with pytest.raises(NotAnArchive):
        archive.peek(b"PK\x03\x04 a zip file")


def test_a_later_format_is_too_new(sealed: bytes) -> None:
    later = sealed[: archive.PREFIX] + bytes([archive.FORMAT + 1]) + sealed[archive.PREFIX + 1 :]
    with pytest.raises(TooNew, match="newer nasui"):
        archive.peek(later)


def test_a_short_passphrase_is_refused() -> None:
    with pytest.raises(ArchiveError, match="at least 8"):
        archive.recipient("short")


@pytest.mark.parametrize("name", ["../etc/passwd", "/etc/passwd", "a//b", "", "a/./b"])
def test_a_member_name_that_could_escape_is_refused(name: str) -> None:
    with pytest.raises(ArchiveError, match="member name"):
        archive.seal({name: b"x"}, archive.recipient(PASSPHRASE), ABOUT)


def test_a_kept_recipient_seals_what_only_the_passphrase_opens() -> None:
    """Scheduled copies: the panel keeps the salt and the public key, never the passphrase;
    each archive has a key pair of its own, so nothing repeats across archives."""
    kept = archive.recipient(PASSPHRASE)
    first, second = (archive.seal(MEMBERS, kept, ABOUT) for _ in range(2))
    assert first != second
    assert archive.open_archive(second, PASSPHRASE).members == MEMBERS
    assert archive.recipient(PASSPHRASE, kept.salt) == kept  # the same passphrase, the same key
    with pytest.raises(WrongPassphrase):
        archive.open_archive(first, "another passphrase")

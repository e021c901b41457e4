"""What a config archive takes from the data directory, and how a restore puts it back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from system.backups.engine import files
from system.backups.engine.files import DATABASE, UnknownMember


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    (data / "tls").mkdir(parents=True)
    (data / "ssh").mkdir()
    (data / "secret_key").write_text("old secret\n")
    (data / "tls" / "cert.pem").write_text("old cert")
    (data / "tls" / "key.pem").write_text("old key")
    (data / "ssh" / "ssh_host_ed25519_key").write_text("old host key")
    (data / "ssh" / "ssh_host_ed25519_key.pub").write_text("ssh-ed25519 AAAA old")
    (data / "ssh" / "authorized_keys").write_text("")
    (data / "clock").mkdir()
    (data / "clock" / "timezone").write_text("Europe/Paris\n")
    (data / "keys").mkdir(mode=0o700)
    (data / "keys" / "0a1b2c3d4e5f6071.key").write_text("ab" * 32 + "\n")
    (data / "locks").mkdir()
    (data / "locks" / "pool.lock").write_text("")
    database = data / "nasui.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE shares (name TEXT)")
        db.execute("CREATE TABLE samples (value REAL)")
        db.execute("INSERT INTO shares VALUES ('family')")
        db.executemany("INSERT INTO samples VALUES (?)", [(i,) for i in range(1000)])
    return data


def rows(database: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(database) as db:
        return list(db.execute(f"SELECT * FROM {table}"))  # noqa: S608 - the test's own names


def test_gather_takes_the_database_and_the_kept_files_only(data_dir: Path, tmp_path) -> None:
    members = files.gather(data_dir, data_dir / "nasui.sqlite3", emptied=["samples"])
    assert sorted(members) == [
        "clock/timezone", DATABASE, "keys/0a1b2c3d4e5f6071.key", "secret_key",
        "ssh/authorized_keys", "ssh/ssh_host_ed25519_key",
        "ssh/ssh_host_ed25519_key.pub", "tls/cert.pem", "tls/key.pem",
    ]  # fmt: skip
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(members[DATABASE])
    assert rows(copy, "shares") == [("family",)]
    assert rows(copy, "samples") == []  # history is not configuration
    assert rows(data_dir / "nasui.sqlite3", "samples")  # the live database keeps its own


def test_a_stage_applied_puts_the_archive_in_place_and_the_old_files_aside(data_dir: Path) -> None:
    database = data_dir / "nasui.sqlite3"
    members = files.gather(data_dir, database)
    members["secret_key"] = b"restored secret\n"
    del members["tls/cert.pem"], members["tls/key.pem"]  # an archive from a box without TLS
    files.stage(members, data_dir)
    assert (data_dir / "secret_key").read_text() == "old secret\n"  # nothing live changed yet
    assert files.staged(data_dir)
    aside = files.apply(data_dir, database)
    assert aside is not None
    assert (data_dir / "secret_key").read_text() == "restored secret\n"
    assert rows(database, "shares") == [("family",)]
    assert not (data_dir / "tls" / "cert.pem").exists()  # made again at the next start
    assert (aside / "tls" / "cert.pem").read_text() == "old cert"
    assert (aside / "secret_key").read_text() == "old secret\n"
    assert (aside / DATABASE).exists()
    key = data_dir / "keys" / "0a1b2c3d4e5f6071.key"
    assert key.read_text() == "ab" * 32 + "\n"  # an encryption root still unlocks at boot
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert oct(key.parent.stat().st_mode & 0o777) == "0o700"
    assert not files.staged(data_dir)
    assert files.apply(data_dir, database) is None  # applied once


def test_an_incomplete_stage_is_never_applied(data_dir: Path) -> None:
    files.stage({DATABASE: b"x", "secret_key": b"new"}, data_dir)
    (data_dir / files.STAGED / files.READY).unlink()  # as if the stage was cut short
    assert files.apply(data_dir, data_dir / "nasui.sqlite3") is None
    assert (data_dir / "secret_key").read_text() == "old secret\n"
    assert not (data_dir / files.STAGED).exists()


@pytest.mark.parametrize("name", ["locks/pool.lock", "static/x.js", "tls/other.pem"])
def test_a_member_no_archive_holds_is_refused(data_dir: Path, name: str) -> None:
    with pytest.raises(UnknownMember, match="no config archive holds"):
        files.stage({DATABASE: b"x", name: b"y"}, data_dir)
    assert not files.staged(data_dir)


def test_an_archive_without_a_database_is_refused(data_dir: Path) -> None:
    with pytest.raises(UnknownMember, match="no database"):
        files.stage({"secret_key": b"x"}, data_dir)


def test_a_stage_waits_for_its_confirmation(data_dir: Path) -> None:
    database = data_dir / "nasui.sqlite3"
    files.stage({DATABASE: database.read_bytes(), "secret_key": b"new"}, data_dir, ready=False)
    assert not files.staged(data_dir)
    assert files.confirm(data_dir)
    assert files.staged(data_dir)
    files.discard(data_dir)
    assert not files.staged(data_dir)
    assert not files.confirm(data_dir)  # nothing left to confirm


def test_the_start_applies_a_ready_stage_from_the_command_line(data_dir: Path) -> None:
    import subprocess
    import sys

    database = data_dir / "nasui.sqlite3"
    files.stage({DATABASE: database.read_bytes(), "secret_key": b"restored\n"}, data_dir)
    argv = [sys.executable, "-m", "system.backups.engine.files", "apply", str(data_dir),
            str(database)]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert "a restored configuration is in place" in done.stdout
    assert (data_dir / "secret_key").read_text() == "restored\n"
    again = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert again.stdout == ""  # nothing staged any more

"""The files a config archive holds, read from the data directory and put back into it.

What rebuilds a box is small: the database (every share, user and NT hash, target, task,
connection and its private key), the secret key that signs sessions and seals what the
database keeps secret, the web certificate, and the SSH host key and authorized keys that
other boxes pinned and rely on, and the clock's files that the appliance reads at boot
(its time zone, its NTP servers). Everything else in the data directory is made from these
(smb.conf, the passdb, accounts.json, the exports) or is not configuration at all (locks, the
static files, a sandbox's pool files, monitoring history).

A restore is put in place in two steps. `stage` writes the members into a folder beside the
data (nothing live changes). `apply`, run at the panel's next start before anything opens the
database, moves the files it replaces aside into a folder of their own and the staged ones in.
"""

from __future__ import annotations

import contextlib
import fnmatch
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

DATABASE = "database.sqlite3"  # the member name of the database, whatever its file is called
# Paths under the data directory, as globs; each file found is a member of the same name.
KEPT = (
    "secret_key", "nasui.env", "tls/cert.pem", "tls/key.pem", "ssh/ssh_host_*",
    "ssh/authorized_keys", "clock/timezone", "clock/timesyncd.conf",
    "network/*.network", "network/settings.json", "network/hostname",
    "keys/*.key", "keys/exported.json",  # the kept encryption keys (storage.encryption)
)  # fmt: skip
STAGED = "restore-staged"  # a folder of the data directory: the members waiting for `apply`
READY = ".complete"  # written last into the staged folder: a partial stage is never applied


def gather(data_dir: Path, database: Path | None, emptied: Sequence[str] = ()) -> dict[str, bytes]:
    """The members: the database (a consistent copy, the `emptied` tables without rows) and
    the kept files that exist."""
    members = {name: path.read_bytes() for name, path in _kept(data_dir)}
    if database is not None:
        members[DATABASE] = database_copy(database, emptied)
    return members


def database_copy(database: Path, emptied: Sequence[str] = ()) -> bytes:
    """A copy of a live SQLite database (its backup API: consistent while the panel writes),
    with the rows of `emptied` tables deleted and the file compacted."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.sqlite3"
        source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
            present = {row[0] for row in target.execute("SELECT name FROM sqlite_master")}
            for table in emptied:
                if table in present:  # names from the caller's models, never from input
                    target.execute(f'DELETE FROM "{table}"')  # noqa: S608
            target.commit()
            target.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            target.execute("VACUUM")
        finally:
            source.close()
            target.close()
        return copy.read_bytes()


class UnknownMember(ValueError):
    """An archive holds a file no archive of this panel holds: it is not put anywhere."""


def check_members(members: Iterable[str]) -> None:
    """Every name is the database or a kept file, and the database is there."""
    names = set(members)
    if DATABASE not in names:
        raise UnknownMember("The archive holds no database.")
    for name in sorted(names - {DATABASE}):
        if not any(fnmatch.fnmatchcase(name, pattern) for pattern in KEPT):
            raise UnknownMember(f"The archive holds {name!r}, which no config archive holds.")


def stage(members: Mapping[str, bytes], data_dir: Path, *, ready: bool = True) -> Path:
    """Write the members into the staging folder (replacing an earlier stage); its path. Not
    `ready`, the stage waits for `confirm` (a user looking at what it holds) before a start
    may apply it."""
    check_members(members)
    staged = data_dir / STAGED
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(mode=0o700)
    for name, data in members.items():
        path = staged / name
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(0o600)
    if ready:
        confirm(data_dir)
    return staged


def confirm(data_dir: Path) -> bool:
    """Mark a written stage ready for the next start; False when there is none."""
    folder = data_dir / STAGED
    if not folder.is_dir():
        return False
    (folder / READY).write_text(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) + "\n")
    return True


def discard(data_dir: Path) -> None:
    """Forget a stage, ready or not."""
    shutil.rmtree(data_dir / STAGED, ignore_errors=True)


def staged(data_dir: Path) -> bool:
    """Whether a complete restore waits to be applied."""
    return (data_dir / STAGED / READY).is_file()


def apply(data_dir: Path, database: Path) -> Path | None:
    """Put a complete stage in place: the files it replaces (and every kept file it does not
    hold) move into `before-restore-<time>/`, its own move in. None when nothing was staged;
    else the folder that keeps what was there before."""
    folder = data_dir / STAGED
    if not staged(data_dir):
        shutil.rmtree(folder, ignore_errors=True)  # an interrupted stage: never half applied
        return None
    aside = data_dir / time.strftime("before-restore-%Y%m%d-%H%M%S", time.gmtime())
    aside.mkdir(mode=0o700)
    replaced = [(name, path) for name, path in _kept(data_dir)]
    replaced += [(DATABASE, database)] + [(f"{DATABASE}{x}", Path(f"{database}{x}"))
                                         for x in ("-wal", "-shm")]  # fmt: skip
    for name, path in replaced:
        if path.exists():
            _move(path, aside / name)
    (folder / READY).unlink()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        _move(path, database if name == DATABASE else data_dir / name)
    shutil.rmtree(folder)
    return aside


def _kept(data_dir: Path) -> Iterable[tuple[str, Path]]:
    """(member name, path) of each kept file that exists."""
    for pattern in KEPT:
        for path in sorted(data_dir.glob(pattern)):
            if path.is_file() and not path.is_symlink():
                yield path.relative_to(data_dir).as_posix(), path


def _move(source: Path, destination: Path) -> None:
    destination.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        destination.unlink()
    shutil.move(source, destination)


def main(argv: Sequence[str]) -> int:
    """`python -m system.backups.engine.files apply DATA_DIR DATABASE`: at a start, before
    anything opens the database or reads a kept file (nasui-setup, make run)."""
    if len(argv) != 3 or argv[0] != "apply":
        print("usage: python -m system.backups.engine.files apply DATA_DIR DATABASE")
        return 2
    aside = apply(Path(argv[1]), Path(argv[2]))
    if aside is not None:
        print(f"nasui: a restored configuration is in place; the one it replaced is in {aside}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))

"""A network change on probation: applied at once, undone after its deadline unless confirmed.

A change that would cut the user off must not strand the box. The files in force live in the
data directory's network/; a change moves them to network/previous/ and writes a pending mark
(a token and a deadline). Confirming (from the new address) drops the mark and the old files;
the beat reverts a change whose deadline passed, and the appliance's boot reverts any change
still pending (a box restarted before the confirmation comes back as it was).

Plain Python over files; the caller applies what is in network/ after a change or a revert.
"""

from __future__ import annotations

import json
import secrets
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from nasui.lib.files import read_json_object, write_atomic

FOLDER = "network"
PREVIOUS = "previous"
MARK = "pending.json"
SUFFIX = ".network"
# Kept with the .network files, staged and reverted with them: the settings as the panel shows
# them, and the host name alone (read by the appliance's boot script without Python).
SETTINGS = "settings.json"
HOSTNAME = "hostname"
LAST = "last-undone.json"


def folder(data_dir: Path) -> Path:
    """Where the .network files in force are kept."""
    return data_dir / FOLDER


def in_force(data_dir: Path) -> dict[str, str]:
    """The files in force, by name."""
    return {p.name: p.read_text() for p in _kept(folder(data_dir))}


def stage(data_dir: Path, files: Mapping[str, str], *, now: float, grace: float) -> str:
    """Put `files` in force on probation until now + grace (seconds); the token that confirms
    them. A change made while another is pending keeps the first one's previous files: a
    revert goes back to what was last confirmed."""
    here = folder(data_dir)
    previous = here / PREVIOUS
    here.mkdir(parents=True, exist_ok=True)
    if pending(data_dir) is None:
        shutil.rmtree(previous, ignore_errors=True)
        previous.mkdir()
        for path in _kept(here):
            shutil.copy2(path, previous / path.name)
    _replace(here, files)
    token = secrets.token_urlsafe(16)
    write_atomic(here / MARK, json.dumps({"token": token, "deadline": now + grace}), mode=0o600)
    return token


def pending(data_dir: Path) -> dict[str, object] | None:
    """The pending mark (token, deadline), or None when the files in force are confirmed."""
    return read_json_object(folder(data_dir) / MARK)


def note(data_dir: Path, **fields: object) -> None:
    """Add `fields` to the pending mark (e.g. that the change is applied); none: nothing."""
    mark = pending(data_dir)
    if mark is not None:
        write_atomic(folder(data_dir) / MARK, json.dumps({**mark, **fields}), mode=0o600)


def remember(data_dir: Path, reason: str, at: float) -> None:
    """Keep why and when (epoch seconds) the last change was undone, for the panel."""
    folder(data_dir).mkdir(parents=True, exist_ok=True)
    write_atomic(folder(data_dir) / LAST, json.dumps({"reason": reason, "at": at}), mode=0o644)


def last_undone(data_dir: Path) -> dict[str, object] | None:
    """What `remember` kept, or None."""
    return read_json_object(folder(data_dir) / LAST)


def confirm(data_dir: Path, token: str) -> bool:
    """Keep the files in force if `token` is the pending change's; whether it was."""
    mark = pending(data_dir)
    if mark is None or not secrets.compare_digest(str(mark.get("token", "")), token):
        return False
    (folder(data_dir) / MARK).unlink()
    shutil.rmtree(folder(data_dir) / PREVIOUS, ignore_errors=True)
    return True


def revert(data_dir: Path, *, now: float | None = None) -> bool:
    """Put the previous files back if a change is pending and (when `now` is given) its
    deadline has passed; whether it did."""
    mark = pending(data_dir)
    if mark is None:
        return False
    deadline = mark.get("deadline")
    if now is not None and isinstance(deadline, (int, float)) and now < deadline:
        return False
    previous = folder(data_dir) / PREVIOUS
    _replace(folder(data_dir), {p.name: p.read_text() for p in _kept(previous)})
    (folder(data_dir) / MARK).unlink(missing_ok=True)
    shutil.rmtree(previous, ignore_errors=True)
    return True


def _kept(here: Path) -> list[Path]:
    """The files of a configuration in `here` (the .network files, the settings, the name)."""
    if not here.is_dir():
        return []
    return sorted(
        p for p in here.iterdir()
        if p.is_file() and (p.name.endswith(SUFFIX) or p.name in (SETTINGS, HOSTNAME))
    )  # fmt: skip


def _replace(here: Path, files: Mapping[str, str]) -> None:
    for path in _kept(here):
        if path.name not in files:
            path.unlink()
    for name, text in files.items():
        write_atomic(here / name, text, mode=0o644)


def main(argv: Sequence[str]) -> int:
    """`revert DATA_DIR`: the appliance's boot undoes a change never confirmed."""
    if len(argv) != 2 or argv[0] != "revert":
        print("usage: python -m system.network.engine.pending revert DATA_DIR", file=sys.stderr)
        return 2
    if revert(Path(argv[1])):
        remember(Path(argv[1]), "The box restarted before the change was confirmed.", time.time())
        print("a network change was never confirmed: the settings before it are back")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

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
from collections.abc import Mapping
from pathlib import Path

from nasui.lib.files import write_atomic

FOLDER = "network"
PREVIOUS = "previous"
MARK = "pending.json"
SUFFIX = ".network"


def folder(data_dir: Path) -> Path:
    """Where the .network files in force are kept."""
    return data_dir / FOLDER


def in_force(data_dir: Path) -> dict[str, str]:
    """The files in force, by name."""
    here = folder(data_dir)
    return {p.name: p.read_text() for p in sorted(here.glob(f"*{SUFFIX}"))} if here.is_dir() else {}


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
        for path in here.glob(f"*{SUFFIX}"):
            shutil.copy2(path, previous / path.name)
    _replace(here, files)
    token = secrets.token_urlsafe(16)
    write_atomic(here / MARK, json.dumps({"token": token, "deadline": now + grace}), mode=0o600)
    return token


def pending(data_dir: Path) -> dict[str, object] | None:
    """The pending mark (token, deadline), or None when the files in force are confirmed."""
    try:
        mark = json.loads((folder(data_dir) / MARK).read_text())
    except (FileNotFoundError, ValueError):
        return None
    return mark if isinstance(mark, dict) else None


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
    kept = {p.name: p.read_text() for p in previous.glob(f"*{SUFFIX}")} if previous.is_dir() else {}
    _replace(folder(data_dir), kept)
    (folder(data_dir) / MARK).unlink(missing_ok=True)
    shutil.rmtree(previous, ignore_errors=True)
    return True


def _replace(here: Path, files: Mapping[str, str]) -> None:
    for path in here.glob(f"*{SUFFIX}"):
        if path.name not in files:
            path.unlink()
    for name, text in files.items():
        write_atomic(here / name, text, mode=0o644)

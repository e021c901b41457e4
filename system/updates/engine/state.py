"""What the box remembers of its updates, on the data partition (update/): the release each slot
holds, a trial boot under way, and how the last one ended.

The trial is written before the box restarts into the new slot; the boot that follows (either
slot) ends it: `commit` on the new slot once its panel answers (it becomes the good slot), or a
failure, recorded by the new slot when its panel never answered in time, or by the old slot when
the box came back there (the new release did not even start). Plain Python over JSON files.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from nasui.lib.files import read_json_object, write_atomic

FOLDER = "update"
TRIAL, LAST, SLOTS = "trial.json", "last.json", "slots.json"


@dataclass(frozen=True)
class Trial:
    """A boot of a new slot on probation."""

    slot: str
    release: str
    previous: str  # the release it replaces
    health_seconds: int  # how long after the kernel starts its panel must answer
    at: float


@dataclass(frozen=True)
class Outcome:
    """How the last update (or roll-back) ended."""

    release: str
    kept: bool
    reason: str
    at: float


def folder(data_dir: Path) -> Path:
    """update/ in the data directory."""
    return data_dir / FOLDER


def trial(data_dir: Path) -> Trial | None:
    """The trial boot under way, or None."""
    data = read_json_object(folder(data_dir) / TRIAL)
    return Trial(**data) if isinstance(data, dict) else None


def begin(data_dir: Path, attempt: Trial) -> None:
    """Record a trial before the restart into its slot."""
    _write(folder(data_dir) / TRIAL, asdict(attempt))


def end(data_dir: Path, outcome: Outcome, slot_release: tuple[str, str] | None = None) -> None:
    """Close the trial with `outcome` (and note the release a slot now holds)."""
    _write(folder(data_dir) / LAST, asdict(outcome))
    if slot_release:
        note_slot(data_dir, *slot_release)
    (folder(data_dir) / TRIAL).unlink(missing_ok=True)


def cancel(data_dir: Path) -> None:
    """Forget a trial that never began (GRUB was not told)."""
    (folder(data_dir) / TRIAL).unlink(missing_ok=True)


def last(data_dir: Path) -> Outcome | None:
    """How the last trial ended, or None."""
    data = read_json_object(folder(data_dir) / LAST)
    return Outcome(**data) if isinstance(data, dict) else None


def slots(data_dir: Path) -> dict[str, str]:
    """The release each slot is known to hold."""
    data = read_json_object(folder(data_dir) / SLOTS)
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def note_slot(data_dir: Path, slot: str, release: str) -> None:
    """Remember that `slot` holds `release`."""
    _write(folder(data_dir) / SLOTS, {**slots(data_dir), slot: release})


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data), mode=0o600)

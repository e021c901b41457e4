"""Updates from the panel: a signed update file on a dataset, checked, written into the slot
the box does not run, and booted once on probation (engine/commit.py keeps it or falls back);
and the roll-back to the release in the other slot, on the same probation.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from nasui.models import Job
from nasui.services import job_start
from nasui.validation import fail, refusal
from storage.datasets.selectors import mounted_filesystems
from system.updates import runtime, selectors
from system.updates.engine import bootenv, bundle, slots, state

APPLY_TASK = "system.update_apply"
HEALTH_SECONDS = (120, 3600)  # the panel must answer this long after the new kernel starts
DEFAULT_HEALTH_SECONDS = 600


def update_start(
    *, path: str, health_seconds: int = DEFAULT_HEALTH_SECONDS,
    user: User | AnonymousUser | None = None,
) -> Job:  # fmt: skip
    """Check the update file at `path` (on a dataset, signed by a trusted key, another release)
    and start the job that writes it and restarts the box into it."""
    status = _ready()
    if not HEALTH_SECONDS[0] <= health_seconds <= HEALTH_SECONDS[1]:
        raise fail(
            "health_seconds", f"Give the new release {HEALTH_SECONDS[0]}-{HEALTH_SECONDS[1]} s."
        )
    file = _on_a_dataset(path)
    manifest = _manifest(file)
    if manifest.release == status.release:
        raise fail("path", f"This box runs {manifest.release} already.")
    return job_start(kind="system.update", title=f"Update to {manifest.release}", task=APPLY_TASK,
                     user=user, path=str(file), health_seconds=health_seconds)  # fmt: skip


def update_apply(
    *, path: str, health_seconds: int, report: Callable[[int, str], None]
) -> dict[str, Any]:
    """The job: write the update into the idle slot, label it, have GRUB boot it once, record
    the trial, restart. If any step fails, GRUB still boots the release running now."""
    status = _ready()
    assert status.running is not None  # _ready checked it
    file = Path(path)
    manifest = _manifest(file)
    target = bootenv.other(status.running)
    device = selectors.slot_device(target)
    report(0, f"writing {manifest.release} into slot {target}")
    state.note_slot(selectors.data_dir(), target, "")  # whatever it held is gone
    with device.open("r+b") as sink:
        bundle.write_root(file, manifest, sink, _progress(manifest.size, report))
        sink.flush()
        os.fsync(sink.fileno())  # on the stick before GRUB is told to boot it
    runtime.label(device, slots.label(target))
    _try(target, manifest.release, status.release, health_seconds)
    state.note_slot(selectors.data_dir(), target, manifest.release)
    report(100, f"restarting into {manifest.release}")
    runtime.restart_soon()
    return {"release": manifest.release, "slot": target}


def update_roll_back() -> str:
    """Boot the release in the other slot, on the same probation; the release it goes to."""
    status = _ready()
    if not status.can_roll_back:
        raise refusal("There is no earlier release in the other slot to go back to.")
    assert status.running is not None
    _try(
        bootenv.other(status.running), status.other_release, status.release, DEFAULT_HEALTH_SECONDS
    )
    runtime.restart_soon()
    return status.other_release


def _ready() -> selectors.UpdateStatus:
    status = selectors.update_status()
    if not status.applies or status.running is None:
        raise refusal(
            "This panel does not update the machine it runs on: updates are for the appliance, "
            "which keeps two system slots."
        )
    if status.trial is not None:
        raise refusal(f"{status.trial.release} is being tried: wait until it is kept or undone.")
    return status


def _on_a_dataset(path: str) -> Path:
    """The file at `path` if it is a regular file inside a mounted dataset."""
    file = Path(path.strip())
    if not file.is_absolute():
        raise fail("path", "Give the file's full path, e.g. /mnt/tank/share/nasui-update.tar.")
    resolved = file.resolve()
    if not any(resolved.is_relative_to(mount) for _, mount in mounted_filesystems()):
        raise fail("path", "The update file must be on one of the pools' datasets.")
    if not resolved.is_file():
        raise fail("path", f"There is no file {file}.")
    return resolved


def _manifest(file: Path) -> bundle.Manifest:
    try:
        return bundle.read_manifest(file, selectors.trusted_keys())
    except bundle.UpdateError as exc:
        raise fail("path", str(exc)) from exc


def _try(slot: str, release: str, previous: str, health_seconds: int) -> None:
    """Record the trial, then have GRUB boot `slot` once (in that order: a boot of it always
    finds the trial that judges it)."""
    attempt = state.Trial(slot, release, previous, health_seconds, time.time())
    state.begin(selectors.data_dir(), attempt)
    try:
        bootenv.update(selectors.boot_env(), **{bootenv.TRY: slot})
    except bootenv.BootEnvError as exc:
        state.cancel(selectors.data_dir())
        raise refusal(f"GRUB's environment block could not be written: {exc}") from exc


def _progress(total: int, report: Callable[[int, str], None]) -> Callable[[int], None]:
    step = max(total // 50, 1)
    last = [0]

    def written(done: int) -> None:
        if done - last[0] >= step or done == total:
            last[0] = done
            report(int(done * 99 / total), f"{done >> 20} of {total >> 20} MiB written")

    return written

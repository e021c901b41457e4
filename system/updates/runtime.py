"""The machine's side of an update: the new slot's label, and the restart into it."""

from __future__ import annotations

from pathlib import Path

from nasui.lib.commands import CommandError, run_checked

TIMEOUT = 120


class UpdateRuntimeError(Exception):
    """A system command refused: its own words."""


def label(device: Path, name: str) -> None:
    """Give the ext4 file system on `device` the label GRUB and the kernel look for."""
    _run(["e2label", str(device), name])


def restart_soon() -> None:
    """Restart the box in a few seconds, once the job that asked has said so."""
    _run(["systemd-run", "--on-active=5", "--timer-property=AccuracySec=1s", "systemctl", "reboot"])


def _run(argv: list[str]) -> None:
    try:
        run_checked(argv, timeout=TIMEOUT)
    except CommandError as exc:
        raise UpdateRuntimeError(str(exc)) from exc

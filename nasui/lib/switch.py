"""One shape for a service a user starts and stops: the user's choice, the actions, the boot rule.

A Stop lasts until a Start or the next boot: the choice is written with the boot's id, so a
supervisor restarted within the same boot (a crash, an upgrade) keeps honouring it, and after
a reboot "start at boot" alone decides. A disabled service's first check records a stop, so
later checks leave it stopped too until a user starts it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ACTIONS = ("start", "stop", "restart")
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
STARTED, STOPPED = "started", "stopped"
# Written by earlier versions with no boot id: honoured as a stop of this boot.
LEGACY_FLAG = "stopped-by-user"
# What a supervisor logs when its first check leaves a service stopped.
LEFT_STOPPED = "start at boot is off, or a user stopped it in this boot"


class UnknownAction(ValueError):
    """An action that is not start, stop or restart."""


def check_action(action: str) -> None:
    """UnknownAction naming the actions when `action` is none of them."""
    if action not in ACTIONS:
        raise UnknownAction(f"unknown action {action!r}; use start, stop or restart")


def current_boot(boot_id: Path = BOOT_ID) -> str:
    """This boot's id from the kernel ("" where it cannot be read)."""
    try:
        return boot_id.read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class ServiceSwitch:
    """The user's last Start or Stop of one service, kept in its data directory."""

    directory: Path
    boot_id: Path = BOOT_ID

    @property
    def choice_file(self) -> Path:
        """Where the choice lives: `started <boot>` or `stopped <boot>`."""
        return self.directory / "user-choice"

    def record(self, choice: str, *, boot: str | None = None) -> None:
        """Remember a Start or Stop made in this boot (or in `boot`)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        stamp = current_boot(self.boot_id) if boot is None else boot
        self.choice_file.write_text(f"{choice} {stamp}\n")
        (self.directory / LEGACY_FLAG).unlink(missing_ok=True)

    def forget(self) -> None:
        """No choice any more: start at boot decides again."""
        self.choice_file.unlink(missing_ok=True)
        (self.directory / LEGACY_FLAG).unlink(missing_ok=True)

    def choice(self) -> tuple[str, str] | None:
        """The recorded choice and its boot, or None; an old flag file is a stop of this boot."""
        try:
            words = self.choice_file.read_text().split()
        except OSError:
            words = []
        if words and words[0] in (STARTED, STOPPED):
            return words[0], words[1] if len(words) > 1 else ""
        if (self.directory / LEGACY_FLAG).exists():
            return STOPPED, current_boot(self.boot_id)
        return None

    def held_stopped(self) -> bool:
        """Whether a user (or a disabled start at boot) keeps the service stopped now."""
        found = self.choice()
        return found is not None and found[0] == STOPPED

    def first_check(self, *, enabled: bool) -> bool:
        """Whether the supervisor's first check starts the service (recorded for later checks).

        A choice made in this boot stands; otherwise `enabled` (start at boot) decides.
        """
        found = self.choice()
        boot = current_boot(self.boot_id)
        if found is not None and found[1] == boot:
            return found[0] == STARTED
        if enabled:
            self.forget()
            return True
        self.record(STOPPED, boot=boot)
        return False

    def act(self, action: str, *, stop: Callable[[], object], start: Callable[[], object]) -> None:
        """Run a user's action; the stop is recorded first so no supervisor races it back up."""
        check_action(action)
        if action in ("stop", "restart"):
            self.record(STOPPED)
            stop()
        if action in ("start", "restart"):
            self.record(STARTED)
            start()


__all__ = [
    "ACTIONS",
    "LEFT_STOPPED",
    "ServiceSwitch",
    "UnknownAction",
    "check_action",
    "current_boot",
]

"""Run the panel's SMB server: start smbd with the saved configuration and keep it running."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from nasui.lib.switch import LEFT_STOPPED
from sharing.smb import runtime as files_runtime


class Command(BaseCommand):
    """Supervisor of smbd: part of `make run`'s process set (the appliance uses systemd)."""

    help = "Start smbd with the panel's configuration, and restart it if it dies."
    # A daemon started at every boot: Django's system checks (~0.6 s of CPU here, many seconds
    # of an emulated boot) are the test suite's job, not each start's.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=2.0, help="Seconds between checks.")

    def handle(self, *args: Any, **options: Any) -> None:
        done = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: done.set())
        self.stdout.write(f"SMB service: {settings.NASUI_SMB_MODE} smbd, supervising")
        applied = False
        try:
            while not done.is_set():
                # Until a first full apply worked (accounts, exports), each check tries it again.
                applied = self._check(first=not applied) or applied
                done.wait(options["interval"])
        finally:
            # Stopping the panel stops its smbd: nothing is left running behind it.
            files_runtime.smb_engine().stop()
            self.stdout.write("SMB service: smbd stopped")

    def _check(self, *, first: bool) -> bool:
        """One supervision step; False (the refusal on stderr) to try again next time."""
        try:
            if files_runtime.supervise_once(first=first):
                self.stdout.write("SMB service: smbd started")
            elif first and files_runtime.smb_switch().held_stopped():
                self.stdout.write(f"SMB service: smbd left stopped ({LEFT_STOPPED})")
        except files_runtime.FilesApplyError as exc:
            self.stderr.write(str(exc))
            return False
        return True

"""Run the panel's iSCSI target: start it with the saved configuration and keep it running."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from nasui.lib.switch import LEFT_STOPPED
from sharing.iscsi import runtime


class Command(BaseCommand):
    """Supervisor of the iSCSI target (tgtd or LIO): part of `make run`'s process set."""

    help = "Start the iSCSI target, re-apply the configuration, and restart it if it dies."
    # A daemon started at every boot: Django's system checks (~0.6 s of CPU here, many seconds
    # of an emulated boot) are the test suite's job, not each start's.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=2.0, help="Seconds between checks.")
        parser.add_argument(
            "--once",
            action="store_true",
            help="Start the target, apply the configuration and exit, leaving it running "
            "(the appliance's boot step for LIO, which lives in the kernel).",
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=60.0,
            help="With --once: seconds to keep retrying (zvol devices appear after import).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["once"]:
            self._once(options["interval"], options["wait"])
            return
        done = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: done.set())
        self.stdout.write(f"iSCSI service: {runtime.engine_name()} target, supervising")
        try:
            first = True
            while not done.is_set():
                self._check(first)
                first = False
                done.wait(options["interval"])
        finally:
            # Stopping the panel stops its target: nothing is left running behind it.
            runtime.engine().stop()
            self.stdout.write("iSCSI service: target stopped")

    def _once(self, interval: float, wait: float) -> None:
        """Start and apply, retrying until `wait` runs out; CommandError if it never worked."""
        deadline = time.monotonic() + wait
        while not self._check(first=True):
            if time.monotonic() >= deadline:
                raise CommandError("the iSCSI target could not be started")
            time.sleep(interval)

    def _check(self, first: bool) -> bool:
        """One supervision step; False (and the reason on stderr) if the target refused."""
        try:
            report = runtime.supervise_once(first=first)
        except runtime.IscsiApplyError as exc:
            self.stderr.write(str(exc))
            return False
        if report is not None:
            changes = "; ".join(report.lines()) or "nothing to configure"
            self.stdout.write(f"iSCSI service: target started, {changes}")
        elif first and runtime.switch().held_stopped():
            self.stdout.write(f"iSCSI service: left stopped ({LEFT_STOPPED})")
        return True

"""Run the panel's iSCSI target: start it with the saved configuration and keep it running."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from sharing import runtime


class Command(BaseCommand):
    """Supervisor of the iSCSI target (tgtd or LIO): part of `make run`'s process set."""

    help = "Start the iSCSI target, re-apply the configuration, and restart it if it dies."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=2.0, help="Seconds between checks.")

    def handle(self, *args: Any, **options: Any) -> None:
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

    def _check(self, first: bool) -> None:
        try:
            report = runtime.supervise_once(first=first)
        except runtime.IscsiApplyError as exc:
            self.stderr.write(str(exc))
            return
        if report is not None:
            changes = "; ".join(report.lines()) or "nothing to configure"
            self.stdout.write(f"iSCSI service: target started, {changes}")

"""Run the panel's iSCSI target: start it with the saved configuration and keep it running."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from sharing.iscsi.runtime import engine_name
from sharing.management.supervisor import check, supervise
from sharing.runtime import ServiceRuntime, runtime


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
        target = runtime("iscsi")
        if options["once"]:
            self._once(target, options["interval"], options["wait"])
            return
        self.stdout.write(f"iSCSI service: {engine_name()} target, supervising")
        supervise([target], options["interval"], self.stdout.write, self.stderr.write)

    def _once(self, target: ServiceRuntime, interval: float, wait: float) -> None:
        """Start and apply, retrying until `wait` runs out; CommandError if it never worked."""
        deadline = time.monotonic() + wait
        while not check(target, first=True, out=self.stdout.write, err=self.stderr.write):
            if time.monotonic() >= deadline:
                raise CommandError("the iSCSI target could not be started")
            time.sleep(interval)

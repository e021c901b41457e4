"""Run the UPS side of the panel: NUT's driver, upsd and upsmon on the panel's configuration,
kept running, and the watcher that starts the clean shutdown when the policy says so."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from nasui.lib.commands import CommandError
from system.ups import services
from system.ups.runtime import UpsRuntime

MAX_WAIT = 60.0  # seconds between tries of a daemon that keeps failing


class Command(BaseCommand):
    """Supervisor of NUT: part of `make run`'s process set (nasui-ups.service on the appliance)."""

    help = "Run NUT with the panel's UPS settings, restart what dies, shut down on UPS power."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=2.0, help="Seconds between checks.")

    def handle(self, *args: Any, **options: Any) -> None:
        done = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: done.set())
        ups = UpsRuntime()
        self.stdout.write("UPS service: supervising NUT")
        interval = wait = options["interval"]
        try:
            while not done.is_set():
                # A daemon that will not stay up (a USB UPS unplugged, a simulated one's file
                # gone) is tried less and less often, up to once a minute: a retry every two
                # seconds would cost a small box its CPU for as long as nobody looks.
                wait = min(wait * 2, MAX_WAIT) if self.round(ups) else interval
                done.wait(wait)
        finally:
            stopped = ups.shutdown()
            if stopped:
                self.stdout.write(f"UPS service: {stopped}")

    def round(self, ups: UpsRuntime) -> bool:
        """One round: NUT as the settings say, then a look at the UPS; True when NUT was not
        settled (something had to be started, or failed)."""
        unsettled = True
        try:
            did = ups.supervise()
        except (CommandError, OSError) as exc:
            self.stderr.write(f"UPS service: {exc}")
        else:
            unsettled = bool(did)
            if did:
                self.stdout.write(f"UPS service: {did}")
        said = services.ups_watch()
        if said:
            self.stdout.write(f"UPS service: {said}")
        return unsettled

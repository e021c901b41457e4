"""Run the panel's file servers: smbd with the saved configuration, kept running; NFS at boot."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from sharing.management.supervisor import supervise
from sharing.runtime import runtime


class Command(BaseCommand):
    """Supervisor of smbd: part of `make run`'s process set (the appliance uses systemd)."""

    help = "Start smbd with the panel's configuration, and restart it if it dies."
    # A daemon started at every boot: Django's system checks (~0.6 s of CPU here, many seconds
    # of an emulated boot) are the test suite's job, not each start's.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=2.0, help="Seconds between checks.")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"SMB service: {settings.NASUI_SMB_MODE} smbd, supervising")
        servers = [runtime("smb"), runtime("nfs")]
        supervise(servers, options["interval"], self.stdout.write, self.stderr.write)

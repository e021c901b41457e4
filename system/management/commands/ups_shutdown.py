"""The panel's clean shutdown on UPS power (NUT's upsmon runs this as its SHUTDOWNCMD): stop
the sharing services, sync, export the pools, power off. Runs once per boot."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from system.ups import services


class Command(BaseCommand):
    """Every step is tried and logged; power-off comes whatever failed before it."""

    help = "Shut the box down cleanly (UPS): sharing off, sync, pools exported, power off."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reason", default="asked by hand", help="Why, for the record.")

    def handle(self, *args: Any, **options: Any) -> None:
        report = services.ups_shutdown(reason=options["reason"])
        if report is None:
            self.stdout.write("UPS shutdown: already done in this boot")
            return
        for step in report.steps:
            state = "done" if step.ok else "FAILED"
            self.stdout.write(f"UPS shutdown: {step.name}: {state} {step.detail}".rstrip())

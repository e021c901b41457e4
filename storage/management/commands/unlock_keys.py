"""Unlock, at boot, the encryption roots whose keys the appliance keeps."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from storage.encryption import services


class Command(BaseCommand):
    """The appliance's boot step before the file servers and the iSCSI target start."""

    help = (
        "Load the key of every locked encryption root whose key file is on the data partition "
        "and mount what it opens; roots opened by a typed passphrase wait (an alert says so)."
    )
    requires_system_checks: list[str] = []  # a boot step: the test suite runs the checks

    def handle(self, *args: Any, **options: Any) -> None:
        report = services.unlock_at_boot()
        for name in report.unlocked:
            self.stdout.write(f"unlocked {name} (its key is kept on the appliance)")
        for name in report.waiting:
            self.stdout.write(f"{name} waits for its passphrase in the panel")
        for name, why in report.failed.items():
            self.stderr.write(f"could not unlock {name}: {why}")

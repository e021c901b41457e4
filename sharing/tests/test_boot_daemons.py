"""The daemons systemd starts at every boot skip Django's system checks (the suite runs them)."""

from __future__ import annotations

import pytest
from django.core.management import load_command_class


@pytest.mark.parametrize("name", ["smb_service", "iscsi_service"])
def test_a_boot_daemon_starts_without_system_checks(name, monkeypatch):
    command = load_command_class("sharing", name)
    ran = []
    monkeypatch.setattr(command, "check", lambda *a, **k: ran.append("checks"))
    monkeypatch.setattr(command, "handle", lambda *a, **k: None)
    command.run_from_argv(["manage.py", name])
    assert ran == [], f"{name} ran Django's system checks at start"

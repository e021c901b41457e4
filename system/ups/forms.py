"""The UPS page's form: what UPS, when to shut down, whether to serve it to other machines."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from system.models import UpsSettings

LOCAL = "mode=usb,dummy"


class UpsForm(StyledForm):
    """Passwords are never shown back: left empty, the one set is kept."""

    mode = forms.ChoiceField(label="UPS", choices=UpsSettings.Mode.choices)
    name = forms.CharField(
        label="UPS name", max_length=32,
        help_text="Its name in NUT (on the other machine, for a network UPS).",
    )  # fmt: skip
    dummy_file = forms.CharField(
        label="Simulation file (.dev)", max_length=1024, required=False,
        help_text="For tests only: a dummy-ups file such as /tmp/ups.dev with 'ups.status: OL'.",
    )  # fmt: skip
    remote_host = forms.CharField(label="NUT server", max_length=253, required=False)
    remote_port = forms.IntegerField(label="Port", min_value=1, max_value=65535, initial=3493)
    remote_user = forms.CharField(label="NUT user", max_length=32, required=False)
    remote_password = forms.CharField(
        label="NUT password", max_length=64, required=False,
        widget=forms.PasswordInput(render_value=False), help_text="Empty: keep the one set.",
    )  # fmt: skip
    shutdown_policy = forms.ChoiceField(label="Shut down", choices=UpsSettings.Policy.choices)
    battery_seconds = forms.IntegerField(
        label="Seconds on battery", min_value=5, max_value=86400,
        help_text="The box shuts down cleanly after this long on battery (always at low battery).",
    )  # fmt: skip
    server_enabled = forms.BooleanField(
        label="Serve this UPS to other machines (NUT server)", required=False
    )
    server_address = forms.CharField(
        label="Listen address", max_length=64, required=False,
        help_text="0.0.0.0: every address of this box.",
    )  # fmt: skip
    monitor_user = forms.CharField(label="Monitor user", max_length=32, required=False)
    monitor_password = forms.CharField(
        label="Monitor password", max_length=64, required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Other machines' upsmon logs in with it (secondary). Empty: keep the one set.",
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.show_when("dummy_file", "mode=dummy")
        for name in ("remote_host", "remote_port", "remote_user", "remote_password"):
            self.show_when(name, "mode=network")
        self.show_when("battery_seconds", "shutdown_policy=battery_seconds")
        for name in ("server_enabled", "server_address", "monitor_user", "monitor_password"):
            self.show_when(name, LOCAL)

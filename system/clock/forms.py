"""The clock page's form: a time zone and the NTP servers."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from system.clock.engine import clock


class ClockForm(StyledForm):
    """The zone from the tz database; servers as typed (the service checks each)."""

    time_zone = forms.ChoiceField(label="Time zone", choices=[])
    ntp_servers = forms.CharField(
        label="NTP servers", max_length=1024, required=False,
        help_text="Host names or addresses, separated by spaces or commas. Empty: Debian's "
        "public pool (when the box reaches the internet).",
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The zones known here, UTC first."""
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(zone, zone) for zone in clock.zones()]  # type: ignore[attr-defined]

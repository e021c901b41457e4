"""The backup schedule's form on the backup page."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm


class ScheduleForm(StyledForm):
    """When, where and how many; a passphrase only to set or change it."""

    enabled = forms.BooleanField(label="Write config archives on a schedule", required=False)
    dataset = forms.CharField(
        max_length=255, required=False, help_text="A file system, e.g. tank/backups."
    )
    keep = forms.IntegerField(min_value=1, max_value=1000, help_text="The newest this many stay.")
    minutes = forms.CharField(max_length=100, help_text="0-59, e.g. 0 or */30.")
    hours = forms.CharField(max_length=100, help_text="0-23, e.g. 3 or */6.")
    days_of_week = forms.CharField(
        label="Days", max_length=100, help_text="mon-sun or *, e.g. sun or mon-fri."
    )
    passphrase = forms.CharField(
        max_length=1024, strip=False, required=False,
        help_text="Seals every scheduled archive; kept nowhere. Leave empty to keep the one set.",
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip

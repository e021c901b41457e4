"""The scrub schedule form of a pool's page."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm
from storage.scrub.services import MAX_THRESHOLD_DAYS


class ScrubTaskForm(StyledForm):
    """How often the pool is checked, and how old its last scrub may get."""

    threshold_days = forms.IntegerField(
        min_value=1,
        max_value=MAX_THRESHOLD_DAYS,
        label="Scrub when the last scrub is older than (days)",
        help_text="35 days by default: about once a month, as TrueNAS does.",
    )
    minutes = forms.CharField(max_length=100, help_text="0-59: '0', '0,30', '*/15' or '*'.")
    hours = forms.CharField(max_length=100, help_text="0-23: '0', '1-5', '*/6' or '*'.")
    days_of_week = forms.CharField(
        max_length=100, label="Days of the week", help_text="mon-sun: 'sun', 'mon-fri' or '*'."
    )
    enabled = forms.BooleanField(
        required=False, label="Check this pool on this schedule", initial=True
    )

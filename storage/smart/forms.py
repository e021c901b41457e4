"""The form of a scheduled SMART self-test."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from storage.models import SmartTestTask


class SmartTaskForm(StyledForm):
    """Which test, on which disks (none ticked: every disk), and when."""

    kind = forms.ChoiceField(
        choices=SmartTestTask.KINDS,
        label="Test",
        help_text="Short: a couple of minutes. Long: reads the whole surface (hours).",
    )
    disks = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Tick none to test every disk that answers SMART.",
    )
    minutes = forms.CharField(max_length=100, help_text="0-59: '0', '0,30' or '*/15'.")
    hours = forms.CharField(max_length=100, help_text="0-23: '2', '1-5' or '*/6'.")
    days_of_week = forms.CharField(
        max_length=100, label="Days of the week", help_text="mon-sun: 'sun', 'mon-fri' or '*'."
    )
    enabled = forms.BooleanField(required=False, initial=True, label="Run on this schedule")

    def __init__(self, *args: Any, disk_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["disks"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(n, n) for n in disk_names]

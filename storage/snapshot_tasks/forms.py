"""The form of a periodic snapshot task: dataset, schedule preset or fields, lifetime, naming."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from storage.models import SnapshotTask
from storage.schedule import PRESETS
from storage.zfs import naming

PRESET_CHOICES = [
    ("hourly", "Hourly (every hour, on the hour)"),
    ("daily", "Daily (at midnight)"),
    ("weekly", "Weekly (Sunday at midnight)"),
    ("custom", "Custom (minutes, hours and days below)"),
]


SCHEDULE_FIELDS = ("minutes", "hours", "days_of_week")


class SnapshotTaskForm(StyledForm):
    """A periodic snapshot task; a preset other than custom sets the schedule fields."""

    dataset = forms.ChoiceField(label="Dataset or zvol")
    preset = forms.ChoiceField(choices=PRESET_CHOICES, initial="daily", label="Schedule")
    minutes = forms.CharField(
        max_length=100, help_text="0-59: '0', '0,30', '*/15' or '*'.", initial="0"
    )
    hours = forms.CharField(
        max_length=100, help_text="0-23: '0', '9-17', '*/6' or '*'.", initial="0"
    )
    days_of_week = forms.CharField(
        max_length=100, label="Days of the week", help_text="mon-sun: 'mon-fri', 'sun' or '*'.",
        initial="*",
    )  # fmt: skip
    begin = forms.TimeField(
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        initial="00:00",
        help_text="Runs only between begin and end each day.",
    )
    end = forms.TimeField(
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"), initial="23:59"
    )
    lifetime_value = forms.IntegerField(min_value=1, initial=2, label="Keep snapshots for")
    lifetime_unit = forms.ChoiceField(
        choices=SnapshotTask.LifetimeUnit.choices, initial="week", label="Unit"
    )
    naming_schema = forms.CharField(
        max_length=200,
        initial=naming.DEFAULT_SCHEMA,
        help_text="strftime codes; must contain %Y %m %d %H %M so each run gets its own name "
        "(e.g. auto-%Y-%m-%d_%H-%M). Only snapshots named this way are pruned.",
    )
    recursive = forms.BooleanField(required=False, label="Recursive: include datasets inside it")
    enabled = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: Any, datasets: list[str], **kwargs: Any) -> None:
        """Offer the datasets and zvols that exist."""
        super().__init__(*args, **kwargs)
        self.set_choices("dataset", [(n, n) for n in datasets])
        for field in SCHEDULE_FIELDS:
            # A preset sets these: they show (and can be typed in) only for a custom schedule.
            self.show_when(field, "preset=custom")

    def clean(self) -> dict[str, Any]:
        """A preset wins over the typed fields (so the form works without JavaScript)."""
        data = super().clean() or {}
        preset = PRESETS.get(data.get("preset", ""))
        if preset:
            for field, value in zip(SCHEDULE_FIELDS, preset, strict=True):
                data[field] = value
                self.errors.pop(field, None)
        return data

    def task_fields(self) -> dict[str, Any]:
        """The cleaned values the services take (the preset is only a form helper)."""
        return {k: v for k, v in self.cleaned_data.items() if k != "preset"}

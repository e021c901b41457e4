"""Forms of the snapshot and periodic snapshot task pages; the rules live in the services."""

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


class SnapshotCreateForm(StyledForm):
    """Take a snapshot of one dataset or zvol now."""

    dataset = forms.ChoiceField(label="Dataset or zvol")
    name = forms.CharField(
        required=False,
        max_length=200,
        help_text="Left empty: manual-<date>. Fields such as %Y%m%d-%H%M are filled in (UTC).",
    )
    recursive = forms.BooleanField(
        required=False, label="Recursive: also snapshot every dataset inside it, atomically"
    )

    def __init__(self, *args: Any, datasets: list[str], **kwargs: Any) -> None:
        """Offer the datasets and zvols that exist."""
        super().__init__(*args, **kwargs)
        self.set_choices("dataset", [(n, n) for n in datasets])


class AnyNamesField(forms.MultipleChoiceField):
    """Several names; the service, not the form, says which do not exist (and why)."""

    def valid_value(self, value: str) -> bool:
        """Every name is passed on to the service."""
        return True


class SnapshotDestroyForm(StyledForm):
    """The snapshots of one dataset picked on the list, confirmed."""

    dataset = forms.CharField(widget=forms.HiddenInput)
    names = AnyNamesField(widget=forms.MultipleHiddenInput)


class SnapshotRangeForm(StyledForm):
    """Destroy every snapshot of a dataset from one to another (oldest first)."""

    dataset = forms.CharField(widget=forms.HiddenInput)
    first = forms.ChoiceField(label="From (oldest)")
    last = forms.ChoiceField(label="To (newest)")

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        """Offer the dataset's snapshots, oldest first."""
        super().__init__(*args, **kwargs)
        for field in ("first", "last"):
            self.set_choices(field, [(n, n) for n in names])


class RollbackForm(StyledForm):
    """Confirm a rollback; newer snapshots are destroyed only when ticked."""

    destroy_newer = forms.BooleanField(required=False, label="Destroy newer snapshots")


class ConfirmOnlyForm(StyledForm):
    """A confirmation with nothing to fill in: the button is the answer."""


class CloneForm(StyledForm):
    """Where the writable copy of a snapshot goes."""

    target = forms.CharField(
        label="New dataset or zvol",
        help_text="Full name, in the same pool as the snapshot, e.g. tank/home-clone.",
    )


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

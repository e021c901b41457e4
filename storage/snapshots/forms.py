"""Forms of the snapshot and periodic snapshot task pages; the rules live in the services."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm


class SnapshotCreateForm(StyledForm):
    """Take a snapshot of one dataset or zvol now."""

    dataset = forms.ChoiceField(label="Dataset or zvol")
    name = forms.CharField(
        required=False,
        max_length=200,
        help_text=(
            "Left empty: manual-<date>, which Windows lists under Previous Versions. Fields such"
            " as %Y%m%d-%H%M are filled in (UTC); a name of your own is kept, but Windows does"
            " not list it."
        ),
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


class CloneForm(StyledForm):
    """Where the writable copy of a snapshot goes."""

    target = forms.CharField(
        label="New dataset or zvol",
        help_text="Full name, in the same pool as the snapshot, e.g. tank/home-clone.",
    )

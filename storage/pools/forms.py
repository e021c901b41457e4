"""Forms of the pool pages: create (layout and disks) and import."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from storage import validation as v

# What a disk list says when no disk is left to offer.
NO_FREE_DISK = "No free disk: every disk is in a pool or holds something else (see Disks)."


class PoolCreateForm(StyledForm):
    """Name, layout and disks of a new pool."""

    name = forms.CharField(
        max_length=v.MAX_NAME, help_text="Letters, digits, _ . : - ; starts with a letter."
    )
    layout = forms.ChoiceField(choices=v.LAYOUT_CHOICES, initial="raidz1")
    width = forms.IntegerField(
        required=False,
        min_value=1,
        label="Disks per vdev",
        help_text="For RAID10 and several RAID-Z vdevs; empty: one vdev of all disks "
        "(2 per mirror for RAID10).",
    )
    disks = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, label="Data disks")
    log = forms.MultipleChoiceField(
        widget=forms.CheckboxSelectMultiple, required=False, label="Log (SLOG) disks"
    )
    cache = forms.MultipleChoiceField(
        widget=forms.CheckboxSelectMultiple, required=False, label="Cache (L2ARC) disks"
    )
    spares = forms.MultipleChoiceField(
        widget=forms.CheckboxSelectMultiple, required=False, label="Spare disks"
    )

    def __init__(self, *args: Any, disk_choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("disks", "log", "cache", "spares"):
            self.fields[name].empty_text = NO_FREE_DISK  # type: ignore[attr-defined]
            self.set_choices(name, disk_choices)


class ImportForm(StyledForm):
    """Import a pool found on the disks."""

    pool = forms.CharField(widget=forms.HiddenInput)
    new_name = forms.CharField(required=False, label="Import under a new name (optional)")

"""Forms of the disk pages of a pool: replace, attach, and growing the pool."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from nasui.lib.units import format_bytes
from storage.disks import selectors
from storage.zfs.devices import AUX_KINDS

GROW_KINDS = [("data", "Data vdev (more space)"), *((k, k.capitalize()) for k in AUX_KINDS)]
LAYOUTS = [(t, t) for t in ("stripe", "mirror", "raidz1", "raidz2", "raidz3")]


class NewDiskForm(StyledForm):
    """The free disk that takes the place of, or mirrors, a pool's disk."""

    new_disk = forms.ChoiceField(label="New disk")

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("new_disk", [("", "Pick a disk"), *choices])


class GrowForm(StyledForm):
    """Disks added to a pool: a data vdev like the others, or spares, a log, a cache."""

    kind = forms.ChoiceField(choices=GROW_KINDS, label="Add")
    layout = forms.ChoiceField(
        choices=LAYOUTS, required=False, help_text="A data vdev must match the pool's vdevs."
    )
    disks = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, label="Disks")
    mirror = forms.BooleanField(required=False, label="Mirror the log (two or more disks)")

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("disks", choices)


def free_disk_choices() -> list[tuple[str, str]]:
    """Disks no pool or file system uses, labelled with size and model, for the selects."""
    return [
        (d.name, f"{d.name} · {format_bytes(d.size)}{f' · {d.model}' if d.model else ''}")
        for d in selectors.disk_list()
        if d.free
    ]

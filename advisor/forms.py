"""Forms of "Try it on my data": what to read, how much, and for how long."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from advisor.benchmarks.engine import fio
from advisor.benchmarks.engine import settings as catalogue
from nasui.forms import StyledForm, add_service_errors

MIB = 1024 * 1024
SOURCE_KINDS = [("dataset", "Dataset"), ("zvol", "Zvol"), ("path", "Folder or file (path)")]
TARGET_KINDS = [("dataset", "Dataset (a file)"), ("zvol", "Zvol (block device)")]
# The back end's catalogues: every setting it knows (six tried by default), every fio profile.
SETTINGS = [(key, setting.label) for key, setting in catalogue.CATALOGUE.items()]
PROFILES = [(name, profile.label) for name, profile in fio.PROFILES.items()]


def _choices(values: list[str]) -> list[tuple[str, str]]:
    return [("", "—")] + [(value, value) for value in values]


class SourceForm(StyledForm):
    """A kind and one of three inputs for it; only the one matching the kind is shown."""

    kind_field = "source_kind"
    kinds = SOURCE_KINDS  # the choices of the kind field
    name_field = "source"  # what the services call it; the form has one field per kind

    def __init__(self, *args: Any, choices: dict[str, list[str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kind = self.add_prefix(self.kind_field)  # nasui.js reads the rule by the field's name
        for value, _ in self.kinds:
            name = f"{self.name_field}_{value}"
            self.show_when(name, f"{kind}={value}")
            if value != "path":
                self.set_choices(name, _choices(choices.get(value, [])))

    def clean(self) -> dict[str, Any]:
        """The input of the chosen kind becomes `source`; it must be given."""
        data = super().clean() or {}
        kind = data.get(self.kind_field)
        if kind:
            name_field = f"{self.name_field}_{kind}"
            data[self.name_field] = (data.get(name_field) or "").strip()
            if not data[self.name_field]:
                self.add_error(name_field, "Pick or type what to read.")
        return data

    def columns(self) -> list[list[forms.BoundField]]:
        """Fields by grid column: the inputs of each kind share one (only one is shown)."""
        inputs = [
            self[name]
            for name in self.fields
            if name.startswith(f"{self.name_field}_") and name != self.kind_field
        ]
        rest = [self[name] for name in self.fields if name not in {b.name for b in inputs}]
        return [[rest[0]], inputs, *[[field] for field in rest[1:]]]

    def service_errors(self, exc: ValidationError) -> None:
        """Put a service's errors on the fields: `source` on the shown input, bytes on MiB."""
        kind = self.cleaned_data.get(self.kind_field, "")
        renamed = {self.name_field: f"{self.name_field}_{kind}"}
        renamed |= {
            name.replace("_mib", "_bytes"): name for name in self.fields if name.endswith("_mib")
        }
        errors = {renamed.get(key, key): messages for key, messages in exc.message_dict.items()}
        add_service_errors(self, ValidationError(errors))


class EstimateForm(SourceForm):
    """Estimate compression and dedup on a sample of a dataset, a zvol or a path."""

    source_kind = forms.ChoiceField(choices=SOURCE_KINDS, label="Read from", initial="dataset")
    source_dataset = forms.ChoiceField(required=False, label="Dataset")
    source_zvol = forms.ChoiceField(required=False, label="Zvol")
    source_path = forms.CharField(
        required=False,
        max_length=4096,
        label="Path",
        help_text="An absolute path, e.g. /mnt/old-nas/photos: data you might move here.",
    )
    sample_mib = forms.IntegerField(
        min_value=1,
        initial=256,
        label="Sample (MiB)",
        help_text="Blocks picked across the input; more is slower and more precise.",
    )
    time_seconds = forms.IntegerField(
        min_value=1, initial=60, label="Time budget (seconds)", help_text="The run stops here."
    )
    run_zdb = forms.BooleanField(
        required=False,
        label="Also run zdb -S on the pool (exact dedup, reads the whole pool: slow)",
    )

    def start_arguments(self) -> dict[str, Any]:
        """What estimate_start takes, from the cleaned form."""
        data = self.cleaned_data
        return {
            "source_kind": data["source_kind"],
            "source": data["source"],
            "sample_bytes": data["sample_mib"] * MIB,
            "time_seconds": data["time_seconds"],
            "run_zdb": data["run_zdb"],
        }


class BenchmarkForm(SourceForm):
    """Write a sample to trial datasets with each setting and measure space, speed and CPU."""

    source_kind = forms.ChoiceField(choices=SOURCE_KINDS, label="Read from", initial="dataset")
    source_dataset = forms.ChoiceField(required=False, label="Dataset")
    source_zvol = forms.ChoiceField(required=False, label="Zvol")
    source_path = forms.CharField(
        required=False, max_length=4096, label="Path", help_text="An absolute path."
    )
    pool = forms.ChoiceField(
        label="Pool to test on", help_text="Trial datasets are made here and destroyed after."
    )
    sample_mib = forms.IntegerField(min_value=1, initial=64, label="Sample (MiB)")
    settings = forms.MultipleChoiceField(
        choices=SETTINGS,
        initial=list(catalogue.DEFAULT),
        widget=forms.CheckboxSelectMultiple,
        label="Settings to try",
    )

    def __init__(self, *args: Any, pools: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("pool", _choices(pools))

    def start_arguments(self) -> dict[str, Any]:
        """What benchmark_start takes, from the cleaned form."""
        data = self.cleaned_data
        return {
            "source_kind": data["source_kind"],
            "source": data["source"],
            "pool": data["pool"],
            "sample_bytes": data["sample_mib"] * MIB,
            "settings": list(data["settings"]),
        }


class FioForm(SourceForm):
    """Run fio profiles against a dataset (a file in it) or a zvol."""

    kind_field = "target_kind"
    kinds = TARGET_KINDS
    name_field = "target"

    target_kind = forms.ChoiceField(choices=TARGET_KINDS, label="Test on", initial="dataset")
    target_dataset = forms.ChoiceField(
        required=False, label="Dataset", help_text="fio writes a test file in it, removed after."
    )
    # fio never writes over a zvol of the user's: it makes a scratch one on the pool.
    target_zvol = forms.ChoiceField(
        required=False,
        label="Pool",
        help_text="A scratch zvol is made on this pool for the test and destroyed after.",
    )
    size_mib = forms.IntegerField(min_value=1, initial=1024, label="Test size (MiB)")
    profiles = forms.MultipleChoiceField(
        choices=PROFILES,
        initial=list(fio.DEFAULT),
        widget=forms.CheckboxSelectMultiple,
        label="Profiles",
    )
    runtime_seconds = forms.IntegerField(min_value=1, initial=30, label="Seconds per profile")

    def start_arguments(self) -> dict[str, Any]:
        """What fio_start takes, from the cleaned form."""
        data = self.cleaned_data
        return {
            "target_kind": data["target_kind"],
            "target": data["target"],
            "size_bytes": data["size_mib"] * MIB,
            "profiles": list(data["profiles"]),
            "runtime_seconds": data["runtime_seconds"],
        }

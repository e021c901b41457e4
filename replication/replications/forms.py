"""Forms of the replication task pages: the task, the consent to a refusal, the confirmation."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm
from replication.connections.selectors import connection_queryset
from replication.models import ReplicationTask, SshConnection
from replication.replications.validation import MAX_STALL, NAME_RULE
from storage.models import SnapshotTask
from storage.snapshot_tasks import selectors as snapshot_tasks

SCHEDULE_FIELDS = ("minutes", "hours", "days_of_week", "begin", "end")
OVER_SSH = "direction=push,pull"
LARGEST = 2**31 - 1  # the columns' ceiling: a bigger number is the user's typo, said on its field
Task = ReplicationTask


def _time_input() -> forms.TimeInput:
    return forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


class SnapshotTaskChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A periodic snapshot task, named by its dataset, schedule and naming schema."""

    def label_from_instance(self, obj: Any) -> str:
        """'tank/home · Every day at 00:00 · auto-%Y-%m-%d_%H-%M'."""
        assert isinstance(obj, SnapshotTask)
        return f"{obj.dataset} · {snapshot_tasks.schedule_text(obj)} · {obj.naming_schema}"


class ConnectionChoice(forms.ModelChoiceField):  # type: ignore[type-arg]
    """An SSH connection, named with its address."""

    def label_from_instance(self, obj: Any) -> str:
        """'backup (root@192.168.1.20)'."""
        assert isinstance(obj, SshConnection)
        return f"{obj.name} ({obj.user}@{obj.host})"


class TaskForm(StyledForm):
    """A replication task; the fields of another direction, source or trigger are left out."""

    name = forms.CharField(
        max_length=64,
        help_text=f"How the panel names it: {NAME_RULE}.",
        widget=forms.TextInput(attrs={"autofocus": True, "placeholder": "home-offsite"}),
    )
    direction = forms.ChoiceField(choices=Task.Direction.choices, label="Where to")
    connection = ConnectionChoice(
        queryset=connection_queryset(), required=False, label="SSH connection",
        empty_label="Choose the other box", help_text="The other box (see SSH connections).",
    )  # fmt: skip
    source = forms.CharField(
        max_length=255,
        help_text="The dataset or zvol copied (on the other box when pulling).",
        widget=forms.TextInput(attrs={"list": "datasets", "placeholder": "tank/home"}),
    )
    target = forms.CharField(
        max_length=255,
        help_text="The dataset receiving the copies, inside a pool: pool/name (on the other box "
        "when pushing). Keep it for this task: nothing else should write there.",
        widget=forms.TextInput(attrs={"list": "datasets", "placeholder": "backup/home"}),
    )
    recursive = forms.BooleanField(required=False, label="Recursive: include the datasets inside")
    exclude = forms.CharField(
        required=False, label="Leave out", widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Children of the source not to copy, one per line (e.g. tank/home/cache).",
    )  # fmt: skip
    snapshot_task = SnapshotTaskChoice(
        queryset=snapshot_tasks.task_queryset(), required=False, label="Snapshots to send",
        empty_label="Those named by a schema (type it below)",
        help_text="The periodic snapshot task of the source whose snapshots are copied.",
    )  # fmt: skip
    naming_schema = forms.CharField(
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "auto-%Y-%m-%d_%H-%M"}),
        help_text="strftime codes of the snapshots to send, with %Y %m %d %H %M: other "
        "snapshots of the source are not sent.",
    )
    trigger = forms.ChoiceField(choices=Task.Trigger.choices, label="Trigger")
    minutes = forms.CharField(max_length=100, initial="0", help_text="0-59: '0', '0,30', '*/15'.")
    hours = forms.CharField(max_length=100, initial="*", help_text="0-23: '2', '9-17', '*/6', '*'.")
    days_of_week = forms.CharField(
        max_length=100, initial="*", label="Days of the week", help_text="mon-sun: 'mon-fri', '*'."
    )
    begin = forms.TimeField(widget=_time_input(), initial="00:00", help_text="Runs only from…")
    end = forms.TimeField(widget=_time_input(), initial="23:59", help_text="…until this time.")
    keep_value = forms.IntegerField(
        required=False, min_value=1, max_value=LARGEST, label="Keep copies on the target for",
        help_text="Empty: the target keeps every snapshot that arrives.",
    )  # fmt: skip
    keep_unit = forms.ChoiceField(choices=Task.Unit.choices, initial="month", label="Unit")
    bandwidth_kib = forms.IntegerField(
        min_value=0, max_value=LARGEST, initial=0, label="Bandwidth limit (KiB/s)",
        help_text="0: as fast as it goes.",
    )  # fmt: skip
    wire_compression = forms.BooleanField(required=False, label="Compress over SSH")
    stall_seconds = forms.IntegerField(
        min_value=10, max_value=MAX_STALL, initial=120, label="Stop a stalled transfer after (s)",
        help_text="A transfer that moves nothing for this long stops; the next run resumes it.",
    )  # fmt: skip
    max_age_hours = forms.IntegerField(
        required=False, min_value=1, max_value=LARGEST, label="Alert when the newest copy is "
        "older than (hours)", help_text="Empty: never.",
    )  # fmt: skip
    enabled = forms.BooleanField(required=False, initial=True, label="Enabled: runs at its trigger")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Fields of another choice show only when that choice is made (the page's script)."""
        super().__init__(*args, **kwargs)
        for field in ("connection", "wire_compression"):
            self.show_when(field, OVER_SSH)
        self.show_when("exclude", "recursive=on")
        self.show_when("naming_schema", "snapshot_task=")
        for field in SCHEDULE_FIELDS:
            self.show_when(field, "trigger=schedule")

    def clean(self) -> dict[str, Any]:
        """What another choice hides is not sent (so the form works without JavaScript)."""
        data = super().clean() or {}
        if data.get("direction") == Task.Direction.LOCAL:
            data["connection"], data["wire_compression"] = None, False
        if data.get("snapshot_task") is not None:
            data["naming_schema"] = ""
        lines = (data.get("exclude") or "").splitlines() if data.get("recursive") else []
        data["exclude"] = [line.strip() for line in lines if line.strip()]
        if data.get("trigger") != Task.Trigger.SCHEDULE:
            for field in SCHEDULE_FIELDS:
                self.errors.pop(field, None)
                data.pop(field, None)
        return data

    def task_fields(self) -> dict[str, Any]:
        """The cleaned values the services take."""
        return dict(self.cleaned_data)

    @staticmethod
    def initial_of(task: ReplicationTask) -> dict[str, Any]:
        """The form's values for an existing task."""
        fields = {name: getattr(task, name) for name in TaskForm.base_fields}
        return fields | {"exclude": "\n".join(task.exclude)}


# What each choice destroys on the target, said before the user agrees to it.
CONSEQUENCES = {
    Task.Choice.REPLACE: "The next run sends the source in full and replaces {target} with it: "
    "the data on {target} and its snapshots that the source does not have are destroyed.",
    Task.Choice.ROLLBACK: "The next run rolls {target} back to the newest snapshot both sides "
    "have, then sends what is newer: the newer snapshots on {target} and whatever was written "
    "to it since that snapshot are destroyed.",
}


class ConsentForm(StyledForm):
    """The choice the refusal named (sent back as shown) and the target's name, typed."""

    choice = forms.CharField(widget=forms.HiddenInput)
    confirm = forms.CharField(
        label="Type the target's name to confirm",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "autofocus": True}
        ),
    )

    def __init__(self, *args: Any, target: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.target = target
        self.fields["confirm"].label = f"Type {target} to confirm"

    def clean_confirm(self) -> str:
        """The target's name exactly: what is about to lose data."""
        typed: str = self.cleaned_data["confirm"].strip()
        if typed != self.target:
            raise forms.ValidationError(f"Type {self.target} exactly to confirm.")
        return typed


class ConfirmForm(forms.Form):
    """A confirmation with nothing to fill in: the button is the answer."""

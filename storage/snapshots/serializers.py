"""Serializers of the snapshot API: snapshots and diffs out, request bodies in, tasks both ways."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from nasui.api.serializers import EpochDateTimeField


class SnapshotSerializer(serializers.Serializer[Any]):
    """One snapshot: sizes in bytes, what blocks its destruction, the task that made it."""

    name = serializers.CharField(help_text="Full name: pool/dataset@snapshot.")
    dataset = serializers.CharField()
    short_name = serializers.CharField(help_text="The part after the @.")
    created = EpochDateTimeField()
    used = serializers.IntegerField(help_text="Space only this snapshot holds.")
    referenced = serializers.IntegerField(help_text="The dataset's size as the snapshot sees it.")
    holds = serializers.IntegerField(help_text="User holds: a held snapshot cannot be destroyed.")
    clones = serializers.ListField(child=serializers.CharField())
    task = serializers.IntegerField(
        allow_null=True, help_text="The periodic task that made it; null for a manual snapshot."
    )

    def to_representation(self, instance: Any) -> Any:
        """The task id as a number (the engine keeps it as the property's text)."""
        return super().to_representation(_with_task_id(instance))


def _with_task_id(snapshot: Any) -> dict[str, Any]:
    """The snapshot's fields, its task as an int or None."""
    task = snapshot.task
    return {
        "name": snapshot.name,
        "dataset": snapshot.dataset,
        "short_name": snapshot.short_name,
        "created": snapshot.created,
        "used": snapshot.used,
        "referenced": snapshot.referenced,
        "holds": snapshot.holds,
        "clones": list(snapshot.clones),
        "task": int(task) if task.isdigit() else None,
    }


class SnapshotListQuerySerializer(serializers.Serializer[Any]):
    """?dataset= and ?recursive= of the snapshot list."""

    dataset = serializers.CharField(
        required=False, help_text="Only this dataset or zvol (all pools when left out)."
    )
    recursive = serializers.BooleanField(
        required=False, default=False, help_text="With ?dataset=, also the datasets inside it."
    )


class SnapshotCreateSerializer(serializers.Serializer[Any]):
    """A snapshot to take now."""

    dataset = serializers.CharField()
    name = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="Empty: manual-<date>."
    )
    recursive = serializers.BooleanField(required=False, default=False)


class SnapshotDestroySerializer(serializers.Serializer[Any]):
    """Several snapshots of one dataset by name, or a range from `first` to `last`."""

    dataset = serializers.CharField()
    names = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Short names (after the @)."
    )
    first = serializers.CharField(required=False, help_text="Oldest of the range.")
    last = serializers.CharField(required=False, help_text="Newest of the range.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Either names, or first and last; not both."""
        ranged = "first" in attrs or "last" in attrs
        if ranged and "names" in attrs:
            raise serializers.ValidationError({"names": ["Give names, or first and last."]})
        for field in ("first", "last"):
            if ranged and field not in attrs:
                raise serializers.ValidationError({field: ["This field is required."]})
        if not ranged and not attrs.get("names"):
            raise serializers.ValidationError({"names": ["Pick the snapshots to destroy."]})
        return attrs


class DestroyedSerializer(serializers.Serializer[Any]):
    """How many snapshots were destroyed."""

    destroyed = serializers.IntegerField()


class RollbackSerializer(serializers.Serializer[Any]):
    """Allow the rollback to destroy snapshots newer than the target."""

    destroy_newer = serializers.BooleanField(required=False, default=False)


class RolledBackSerializer(serializers.Serializer[Any]):
    """The newer snapshots the rollback destroyed."""

    destroyed = serializers.ListField(child=serializers.CharField())


class CloneSerializer(serializers.Serializer[Any]):
    """Where the clone goes: a new dataset or zvol in the snapshot's pool."""

    target = serializers.CharField(help_text="Full name, e.g. tank/home-clone.")


class ClonedSerializer(serializers.Serializer[Any]):
    """The clone's full name."""

    name = serializers.CharField()


class DiffEntrySerializer(serializers.Serializer[Any]):
    """One path changed since the snapshot."""

    change = serializers.ChoiceField(choices=["added", "removed", "modified", "renamed"])
    file_type = serializers.CharField()
    path = serializers.CharField()
    new_path = serializers.CharField(help_text="Renamed only: the new path.")

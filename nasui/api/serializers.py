"""Serializers of the core API."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rest_framework import serializers

from nasui.models import Job


class JobSerializer(serializers.ModelSerializer[Job]):
    """A job as scripts see it."""

    created_by: serializers.SlugRelatedField[Job] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Job
        fields = [
            "id",
            "kind",
            "title",
            "status",
            "progress",
            "message",
            "arguments",
            "result",
            "error",
            "cancellable",
            "cancel_requested",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class SelfTestSerializer(serializers.Serializer[None]):
    """Parameters of the self-test job."""

    steps = serializers.IntegerField(min_value=1, max_value=20, default=5)


class TokenRequestSerializer(serializers.Serializer[dict[str, str]]):
    """Credentials and a name for the new token."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)
    name = serializers.CharField(max_length=100, help_text="What will use it, e.g. 'backup'.")
    code = serializers.CharField(
        max_length=32,
        required=False,
        default="",
        allow_blank=True,
        help_text="For a user with two-factor sign-in: the code their authenticator app shows.",
    )
    # DRF's metaclass takes declared fields off the class: this does not replace Field.read_only.
    read_only = serializers.BooleanField(  # type: ignore[assignment]
        default=False, help_text="Reads only, whatever the user's role may change."
    )


class NewTokenSerializer(serializers.Serializer[dict[str, Any]]):
    """The new token: `token` is shown this once and never again."""

    token = serializers.CharField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    read_only = serializers.BooleanField()  # type: ignore[assignment]  # a field, as above


class EpochDateTimeField(serializers.DateTimeField):
    """A Unix time (float seconds) shown as an ISO 8601 date and time."""

    def to_representation(self, value: Any) -> Any:
        return super().to_representation(datetime.fromtimestamp(value, tz=UTC))

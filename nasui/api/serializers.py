"""Serializers of the core API."""

from __future__ import annotations

from rest_framework import serializers

from nasui.models import Job


class JobSerializer(serializers.ModelSerializer[Job]):
    """A job as scripts see it."""

    created_by: serializers.SlugRelatedField[Job] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
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
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class SelfTestSerializer(serializers.Serializer[None]):
    """Parameters of the self-test job."""

    steps = serializers.IntegerField(min_value=1, max_value=20, default=5)

"""The exporter's settings as the API shows them (never the token, only its prefix)."""

from __future__ import annotations

from rest_framework import serializers

from monitoring.models import ExporterSettings


class ExporterSettingsSerializer(serializers.ModelSerializer[ExporterSettings]):
    """Whether /metrics answers, and which token it takes (its first characters)."""

    has_token = serializers.SerializerMethodField()

    class Meta:
        model = ExporterSettings
        fields = ["enabled", "has_token", "token_prefix", "token_created_at", "last_scraped_at"]
        read_only_fields = ["token_prefix", "token_created_at", "last_scraped_at"]
        extra_kwargs = {"enabled": {"required": True}}

    def get_has_token(self, row: ExporterSettings) -> bool:
        """A token was made (scrapes need one)."""
        return bool(row.token_hash)


class ExporterTokenSerializer(serializers.Serializer[object]):
    """A new token: the secret, shown this once."""

    token = serializers.CharField(help_text="Send it as `Authorization: Bearer <token>`.")
    token_prefix = serializers.CharField()
    token_created_at = serializers.DateTimeField()

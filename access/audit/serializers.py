"""The audit log through the API (read only)."""

from __future__ import annotations

from rest_framework import serializers

from access.audit.models import AuditEntry


class AuditEntrySerializer(serializers.ModelSerializer[AuditEntry]):
    """One row: who, from where, what, on which object, and what came of it."""

    class Meta:
        model = AuditEntry
        fields = ("id", "at", "username", "address", "via", "method", "action", "target",
                  "path", "result", "status")  # fmt: skip
        read_only_fields = fields


class AuditQuerySerializer(serializers.Serializer[dict[str, object]]):
    """The list's filters (query parameters)."""

    q = serializers.CharField(required=False, default="", allow_blank=True, max_length=200)
    user = serializers.CharField(required=False, default="", allow_blank=True, max_length=150)
    result = serializers.ChoiceField(
        choices=[*AuditEntry.Result.values, ""], required=False, default=""
    )
    since = serializers.DateField(required=False, allow_null=True, default=None)
    until = serializers.DateField(required=False, allow_null=True, default=None)

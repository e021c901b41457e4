"""Config backup and restore through the API: the passphrase in, the archive out, and back."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

SEAL_HELP = "At least 8 characters; used once to seal or open the archive, kept nowhere."


class BackupSerializer(serializers.Serializer[Any]):
    """What a backup needs: the passphrase that seals it."""

    passphrase = serializers.CharField(
        max_length=1024, trim_whitespace=False, write_only=True, help_text=SEAL_HELP
    )


class ArchiveSerializer(serializers.Serializer[Any]):
    """An archive uploaded (multipart) and the passphrase that opens it."""

    archive = serializers.FileField(help_text="A .nasui config archive.")
    passphrase = serializers.CharField(
        max_length=1024, trim_whitespace=False, write_only=True, help_text=SEAL_HELP
    )


class SummarySerializer(serializers.Serializer[Any]):
    """What an archive holds and who made it."""

    version = serializers.CharField(help_text="The nasui release that made it.")
    host = serializers.CharField()
    made = serializers.CharField(help_text="When, in ISO 8601 (UTC).")
    counts = serializers.DictField(child=serializers.IntegerField())
    pools = serializers.ListField(child=serializers.CharField(), help_text="Pools it names.")


class RestoreResultSerializer(SummarySerializer):
    """A staged restore: what it brings back, applied at the panel's next start."""

    staged = serializers.BooleanField()

"""Serializers of the encryption API: encryption roots out; lock, unlock and key changes in.

A passphrase is write-only everywhere: no answer, page or log carries it back.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from storage.encryption.services import PASSPHRASE_LENGTHS


def passphrase_field(**kwargs: Any) -> serializers.CharField:
    """A write-only passphrase (its length is checked by the services, with their words)."""
    low, high = PASSPHRASE_LENGTHS
    kwargs.setdefault("help_text", f"{low} to {high} characters; never stored, never sent back.")
    return serializers.CharField(
        write_only=True, trim_whitespace=False, style={"input_type": "password"}, **kwargs
    )


class KeyRootSerializer(serializers.Serializer[Any]):
    """An encryption root: what its key opens and how it is unlocked."""

    name = serializers.CharField()
    type = serializers.CharField(source="dataset.type")
    encryption = serializers.CharField(source="dataset.encryption")
    key_format = serializers.CharField(
        source="dataset.key_format", help_text="passphrase (typed) or hex (a generated key)."
    )
    locked = serializers.BooleanField(source="dataset.locked")
    unlocks_at_boot = serializers.BooleanField(
        help_text="Its key is kept on the appliance's data partition: it unlocks at boot. "
        "That protects the disks, not a whole box taken with its stick."
    )


class NameSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The encryption root's full name, e.g. tank/vault.")


class UnlockSerializer(NameSerializer):
    passphrase = passphrase_field(
        required=False, allow_blank=True, default=""
    )  # a root with a key file needs none


class ChangeKeySerializer(NameSerializer):
    method = serializers.ChoiceField(
        choices=["passphrase", "key"],
        help_text="passphrase: a new typed passphrase; key: a new generated key kept on the "
        "appliance (unlocks at boot).",
    )
    passphrase = passphrase_field(required=False, allow_blank=True, default="")
    passphrase_confirm = passphrase_field(required=False, allow_blank=True, default="")


class ExportSerializer(serializers.Serializer[Any]):
    passphrase = passphrase_field(
        help_text="Seals the key file; 8 or more characters, kept nowhere."
    )
    passphrase_confirm = passphrase_field()


class ImportSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="A .nasui-keys file downloaded from a nasui panel.")
    passphrase = passphrase_field()


class ImportedSerializer(serializers.Serializer[Any]):
    imported = serializers.ListField(
        child=serializers.CharField(), help_text="Roots given their key (and unlocked)."
    )
    absent = serializers.ListField(
        child=serializers.CharField(), help_text="Roots of the file that no pool here holds."
    )
    refused = serializers.DictField(
        child=serializers.CharField(), help_text="Roots the file's key did not open, and why."
    )

"""The web certificate through the API: what is served, and a new pair in PEM."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class CertificateSerializer(serializers.Serializer[Any]):
    """The certificate in service."""

    subject = serializers.CharField(read_only=True)
    names = serializers.ListField(
        child=serializers.CharField(), read_only=True,
        help_text="Its DNS names and addresses (subjectAltName, else the common name).",
    )  # fmt: skip
    not_before = serializers.DateTimeField(read_only=True)
    not_after = serializers.DateTimeField(read_only=True)
    fingerprint = serializers.CharField(read_only=True, help_text="SHA-256, as browsers show it.")
    self_signed = serializers.BooleanField(read_only=True)
    key_type = serializers.CharField(read_only=True)


class CertificateUploadSerializer(serializers.Serializer[Any]):
    """A certificate and its key, both PEM text."""

    certificate = serializers.CharField(
        max_length=256 << 10, trim_whitespace=False,
        help_text="PEM: this box's certificate first, then its chain.",
    )  # fmt: skip
    key = serializers.CharField(
        max_length=256 << 10, trim_whitespace=False, write_only=True,
        help_text="PEM, without a passphrase.",
    )  # fmt: skip

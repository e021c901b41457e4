"""Serializers of the alerts API: alerts out, the e-mail settings both ways."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from monitoring.alerting.services.mail import mail_settings_warnings
from monitoring.models import AlertRecord, MailSettings, MailState, Security

MAX_RECIPIENTS = 20


MAIL_STATES = "The mail of this event: " + "; ".join(
    f"'{value}' {label.lower()}" for value, label in MailState.choices
)


class AlertRecordSerializer(serializers.ModelSerializer[AlertRecord]):
    """One alert: what, how bad, when raised, cleared or dismissed, and its mails."""

    is_open = serializers.BooleanField(read_only=True)
    # plain strings: one enum for both would get two names in the schema
    raise_mail = serializers.CharField(read_only=True, help_text=MAIL_STATES)
    clear_mail = serializers.CharField(read_only=True, help_text=MAIL_STATES)
    dismissed_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = AlertRecord
        fields = [
            "id", "key", "source", "level", "kind", "subject", "title", "text", "is_open",
            "raised_at", "seen_at", "cleared_at", "dismissed_at", "dismissed_by",
            "raise_mail", "clear_mail",
        ]  # fmt: skip
        read_only_fields = fields


class MailSettingsSerializer(serializers.ModelSerializer[MailSettings]):
    """The SMTP settings; the password can be written but is never returned."""

    password = serializers.CharField(
        write_only=True, required=False, allow_blank=True, allow_null=True, max_length=255,
        help_text="Write-only. Omit it or send it empty to keep the stored password; send null "
        "(or clear_password: true) to forget it.",
    )  # fmt: skip
    clear_password = serializers.BooleanField(
        write_only=True, required=False, default=False,
        help_text="Forget the stored password (send no new one with it).",
    )  # fmt: skip
    ca_pem = serializers.CharField(
        write_only=True, required=False, allow_blank=True, max_length=256 * 1024,
        help_text="A CA certificate in PEM text (-----BEGIN CERTIFICATE-----...): the panel "
        "keeps it in its data directory and sets ca_file to it.",
    )  # fmt: skip
    has_password = serializers.SerializerMethodField()
    warnings = serializers.SerializerMethodField()
    security = serializers.ChoiceField(choices=Security.choices, required=False)
    to_addresses = serializers.ListField(
        child=serializers.EmailField(), required=False, max_length=MAX_RECIPIENTS
    )
    port = serializers.IntegerField(min_value=1, max_value=65535, required=False)

    class Meta:
        model = MailSettings
        fields = [
            "enabled", "host", "port", "security", "username", "password", "clear_password",
            "has_password", "from_address", "to_addresses", "ca_file", "ca_pem", "panel_url",
            "last_sent_at", "last_error", "last_error_at", "warnings",
        ]  # fmt: skip
        read_only_fields = ["last_sent_at", "last_error", "last_error_at"]

    def get_has_password(self, config: MailSettings) -> bool:
        """Whether a password is stored (its value never leaves the server)."""
        return bool(config.password)

    def get_warnings(self, config: MailSettings) -> list[str]:
        """What is allowed but unwise in the settings (a password sent in clear text)."""
        return mail_settings_warnings(config)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """A null password means "forget it"; PEM text goes to the service as bytes."""
        if "password" in attrs and attrs["password"] is None:
            del attrs["password"]
            attrs["clear_password"] = True
        if not attrs.get("clear_password"):
            attrs.pop("clear_password", None)
        if "ca_pem" in attrs:
            attrs["ca_pem"] = attrs["ca_pem"].encode() or None
        return attrs

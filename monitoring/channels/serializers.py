"""Serializers of the channels API: settings both ways (secrets write-only), notices out."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from monitoring.channels import selectors
from monitoring.channels.engine.kinds import KINDS
from monitoring.channels.validation import LEVELS, METHODS
from monitoring.models import Channel, Notice

SECRET = "Write-only: never returned. Omit it or send it empty to keep the stored one."  # noqa: S105 (words, not a password)


class ChannelSerializer(serializers.ModelSerializer[Channel]):
    """A channel: kind, levels and the kind's fields; `stored_secrets` names what is kept."""

    kind = serializers.ChoiceField(choices=list(KINDS))
    levels = serializers.ListField(child=serializers.ChoiceField(choices=LEVELS), max_length=2)
    url = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=2000,
        help_text="webhook, slack, discord: the webhook address. " + SECRET,
    )
    topic = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="ntfy: the topic. " + SECRET,
    )
    token = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="ntfy (optional), gotify, telegram: the access token. " + SECRET,
    )
    headers = serializers.DictField(
        child=serializers.CharField(max_length=4000, allow_blank=True),
        write_only=True,
        required=False,
        help_text="webhook: extra request headers. " + SECRET,
    )
    server = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=2000,
        help_text="ntfy, gotify: the server's address.",
    )
    chat_id = serializers.CharField(
        required=False, allow_blank=True, max_length=40, help_text="telegram"
    )
    api_url = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=2000,
        help_text="telegram: the Bot API's address.",
    )
    # blank: what the other kinds, which have no method, answer
    method = serializers.ChoiceField(
        choices=METHODS, required=False, allow_blank=True, help_text="webhook"
    )
    body_template = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=8000,
        help_text="webhook: a JSON body with {{field}} places.",
    )
    forget = serializers.ListField(
        child=serializers.ChoiceField(choices=["token", "headers"]),
        write_only=True,
        required=False,
        max_length=2,
        help_text="Stored optional secrets to drop.",
    )
    target = serializers.SerializerMethodField()
    stored_secrets = serializers.SerializerMethodField()
    waiting = serializers.SerializerMethodField()
    failed = serializers.SerializerMethodField()

    class Meta:
        model = Channel
        fields = [
            "id",
            "name",
            "kind",
            "enabled",
            "levels",
            "url",
            "topic",
            "token",
            "headers",
            "server",
            "chat_id",
            "api_url",
            "method",
            "body_template",
            "forget",
            "target",
            "stored_secrets",
            "waiting",
            "failed",
            "last_sent_at",
            "last_error",
            "last_error_at",
        ]
        read_only_fields = ["last_sent_at", "last_error", "last_error_at"]

    def to_representation(self, instance: Channel) -> dict[str, Any]:
        """Shown fields come from the channel's options."""
        data = super().to_representation(instance)
        for name in ("server", "chat_id", "api_url", "method", "body_template"):
            data[name] = instance.options.get(name, "")
        return data

    def get_target(self, channel: Channel) -> str:
        """Where it sends, without its secrets."""
        return selectors.target_of(channel).text

    def get_stored_secrets(self, channel: Channel) -> list[str]:
        """The names of the secrets kept (their values never leave the server)."""
        return sorted(channel.secrets)

    def get_waiting(self, channel: Channel) -> int:
        """Notices waiting to be sent (or retried): counted by the list's query when it did."""
        return _count(channel, "waiting", Notice.State.PENDING)

    def get_failed(self, channel: Channel) -> int:
        """Notices not delivered after every retry."""
        return _count(channel, "failed", Notice.State.FAILED)


def _count(channel: Channel, annotated: str, state: str) -> int:
    """A count selectors.channels() annotated, or one query for a channel just saved."""
    found = getattr(channel, annotated, None)
    return int(found) if found is not None else channel.notices.filter(state=state).count()


class NoticeSerializer(serializers.ModelSerializer[Notice]):
    """One event on its way to a channel."""

    title = serializers.CharField(source="alert.title", read_only=True)

    class Meta:
        model = Notice
        fields = [
            "id",
            "alert",
            "title",
            "cleared",
            "level",
            "state",
            "attempts",
            "created_at",
            "next_try_at",
            "sent_at",
            "in_digest",
            "last_error",
        ]
        read_only_fields = fields

"""What each kind of channel is configured with: fields that may be shown, fields only written.

A secret is anything that lets a stranger post to the user's phone or chat: an access token, a
webhook URL whose path is its key, a header's value (an Authorization header).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """One kind of channel: its fields (shown), its secrets (write-only), which are needed."""

    label: str
    fields: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    defaults: tuple[tuple[str, str], ...] = ()


KINDS: dict[str, Kind] = {
    "webhook": Kind(
        "Generic webhook",
        fields=("method", "body_template"),
        secrets=("url", "headers"),
        required=("url",),
        defaults=(("method", "POST"),),
    ),
    "ntfy": Kind(
        "ntfy",
        fields=("server",),
        secrets=("topic", "token"),
        required=("server", "topic"),
        defaults=(("server", "https://ntfy.sh"),),
    ),
    "gotify": Kind("Gotify", fields=("server",), secrets=("token",), required=("server", "token")),
    "slack": Kind("Slack or Mattermost", secrets=("url",), required=("url",)),
    "telegram": Kind(
        "Telegram",
        fields=("chat_id", "api_url"),
        secrets=("token",),
        required=("chat_id", "token"),
        defaults=(("api_url", "https://api.telegram.org"),),
    ),
    "discord": Kind("Discord", secrets=("url",), required=("url",)),
}

FIELD_NAMES = sorted({name for kind in KINDS.values() for name in kind.fields + kind.secrets})


def kinds_with(name: str) -> list[str]:
    """The kinds that have field `name`, for the form's show-when rule."""
    return [key for key, kind in KINDS.items() if name in kind.fields + kind.secrets]

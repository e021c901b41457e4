"""The channel form: one set of fields, each shown for the kinds that use it."""

from __future__ import annotations

from typing import Any

from django import forms

from monitoring.channels.engine.kinds import KINDS, kinds_with
from monitoring.channels.engine.template import DEFAULT
from monitoring.channels.validation import LEVELS, METHODS
from monitoring.models import Channel
from nasui.forms import StyledForm

SECRET_HINT = "Stored and never shown again; leave empty to keep the stored one."  # noqa: S105 (words, not a password)


class ChannelForm(StyledForm):
    """Name, kind, levels and the kind's fields; secrets are write-only (empty keeps them)."""

    name = forms.CharField(max_length=100)
    kind = forms.ChoiceField(choices=[(k, v.label) for k, v in KINDS.items()])
    enabled = forms.BooleanField(required=False, initial=True, label="On")
    levels = forms.MultipleChoiceField(
        choices=[(level, level.title()) for level in LEVELS],
        initial=list(LEVELS),
        widget=forms.CheckboxSelectMultiple,
        label="Alert levels it gets",
    )
    url = forms.CharField(
        required=False,
        label="Webhook URL",
        widget=forms.PasswordInput(render_value=False),
        help_text="The full address the service gave you (it carries its key). " + SECRET_HINT,
    )
    server = forms.CharField(
        required=False,
        label="Server",
        help_text="e.g. https://ntfy.sh or your own server's address.",
    )
    topic = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text="Anyone who knows the topic can read it: pick a long, unguessable one. "
        + SECRET_HINT,
    )
    token = forms.CharField(
        required=False,
        label="Access token",
        widget=forms.PasswordInput(render_value=False),
        help_text=SECRET_HINT,
    )
    chat_id = forms.CharField(
        required=False, label="Chat id", help_text="A number (-100… for a group) or @channelname."
    )
    api_url = forms.CharField(
        required=False, label="Bot API address", initial="https://api.telegram.org"
    )
    method = forms.ChoiceField(required=False, choices=[(m, m) for m in METHODS], initial="POST")
    headers = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One “Name: value” per line, e.g. Authorization: Bearer …. " + SECRET_HINT,
    )
    body_template = forms.CharField(
        required=False,
        label="Body (JSON)",
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="{{title}}, {{text}}, {{level}}, {{state}}, {{headline}}, {{host}}, {{key}}, "
        "{{raised_at}}, {{cleared_at}}, {{link}} are filled in. Empty: " + DEFAULT,
    )
    forget = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Forget stored",
        choices=[("token", "Access token"), ("headers", "Headers")],
    )

    def __init__(self, *args: Any, channel: Channel | None = None, **kwargs: Any) -> None:
        """Show each kind's fields only for it; on a new channel there is nothing to forget."""
        super().__init__(*args, **kwargs)
        for name in (
            "url",
            "server",
            "topic",
            "token",
            "chat_id",
            "api_url",
            "method",
            "headers",
            "body_template",
        ):
            self.show_when(name, "kind=" + ",".join(kinds_with(name)))
        if channel is None:
            del self.fields["forget"]
        else:
            self.show_when("forget", "kind=webhook,ntfy")
            stored = set(channel.secrets)
            for name in ("url", "topic", "token", "headers"):
                if name in stored:
                    self.fields[name].widget.attrs["placeholder"] = "(stored)"

    @classmethod
    def for_channel(cls, channel: Channel, data: Any = None) -> ChannelForm:
        """The form filled with a channel's shown settings (never its secrets)."""
        initial = {
            "name": channel.name,
            "kind": channel.kind,
            "enabled": channel.enabled,
            "levels": channel.levels,
            **channel.options,
        }
        return cls(data, initial=initial, channel=channel)

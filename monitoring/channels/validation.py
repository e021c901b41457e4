"""The input rules of a channel: each kind's fields, checked and split into shown and secret."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError

from monitoring.channels.engine import template
from monitoring.channels.engine.kinds import KINDS, Kind
from monitoring.channels.engine.message import Message
from nasui.validation import fail

LEVELS = ("danger", "warning")
METHODS = ("POST", "PUT")
HEADER_NAME = re.compile(r"^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$")
MAX_HEADERS = 20
NTFY_TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TELEGRAM_TOKEN = re.compile(r"^\d{3,20}:[A-Za-z0-9_-]{20,100}$")
TELEGRAM_CHAT = re.compile(r"^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$")
SAMPLE = Message(
    title="Pool tank is DEGRADED",
    text='One disk of "tank" failed.',
    level="danger",
    state="raised",
    host="nas",
    link="https://nas/alerts/",
    key="pool_health:tank",
    raised_at="2026-01-01T00:00:00+00:00",
)


def check_levels(levels: list[str]) -> list[str]:
    """At least one known level, in the canonical order."""
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or not levels:
        raise fail("levels", "Choose at least one of: danger, warning.")
    return [level for level in LEVELS if level in levels]


def check_url(value: str, field: str) -> str:
    """An http(s) URL with a host, no spaces."""
    value = value.strip()
    rule = "Enter a full address starting with https:// (or http://)."
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (a port out of range raises here, as a lone "[" does above)
    except ValueError as exc:
        raise fail(field, rule) from exc
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or any(c.isspace() for c in value)
    ):
        raise fail(field, rule)
    if len(value) > 2000:
        raise fail(field, "At most 2,000 characters.")
    return value


def check_headers(value: Any) -> dict[str, str]:
    """Header names as HTTP allows, values on one line; no Content-Type or Host games."""
    if isinstance(value, str):
        value = _parse_header_lines(value)
    if not isinstance(value, dict) or len(value) > MAX_HEADERS:
        raise fail("headers", f"Give at most {MAX_HEADERS} headers as name: value.")
    for name, text in value.items():
        if not HEADER_NAME.match(str(name)):
            raise fail("headers", f"“{name}” is not a header name (letters, digits, - and _).")
        if not isinstance(text, str) or any(c in text for c in "\r\n\0") or len(text) > 4000:
            raise fail("headers", f"The value of {name} must be one line of text.")
        if name.lower() in ("host", "content-length", "transfer-encoding"):
            raise fail("headers", f"{name} is set by the panel itself.")
    return {str(k): v.strip() for k, v in value.items()}


def _parse_header_lines(text: str) -> dict[str, str]:
    """'Name: value' per line (the form's text box)."""
    headers: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, colon, value = line.partition(":")
        if not colon:
            raise fail("headers", f"Line {number} is not “Name: value”.")
        headers[name.strip()] = value.strip()
    return headers


def check_template(value: str) -> str:
    """A body template that makes JSON with every alert field (empty: the default body)."""
    value = value.strip()
    if len(value) > 8000:
        raise fail("body_template", "At most 8,000 characters.")
    if value:
        try:
            template.check(value, SAMPLE.fields())
        except template.TemplateError as exc:
            raise fail("body_template", str(exc)) from exc
    return value


def _check_one(name: str, value: Any) -> Any:
    """One field by its rule."""
    if name in ("url", "server", "api_url"):
        return check_url(str(value), name)
    if name == "headers":
        return check_headers(value)
    if name == "body_template":
        return check_template(str(value))
    if name == "method":
        if value not in METHODS:
            raise fail("method", "Choose POST or PUT.")
        return value
    text = str(value).strip()
    rules = {
        "topic": (NTFY_TOPIC, "A topic is 1-64 letters, digits, - or _."),
        "chat_id": (TELEGRAM_CHAT, "A chat id is a number (-100… for groups) or @channel."),
        "token": (
            re.compile(r"^[\x21-\x7e]{1,500}$"),
            "A token is one word of printable characters.",
        ),
    }
    pattern, rule = rules[name]
    if not pattern.match(text):
        raise fail(name, rule)
    return text


def split_config(
    kind_name: str, given: dict[str, Any], stored_secrets: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The kind's shown fields and secrets from what was given; an empty secret keeps the stored."""
    kind: Kind = KINDS[kind_name]
    options = dict(kind.defaults)
    secrets = {k: v for k, v in stored_secrets.items() if k in kind.secrets}
    errors: dict[str, list[str]] = {}
    for name in kind.fields + kind.secrets:
        value = given.get(name)
        if value in (None, "", {}):
            continue
        try:
            checked = _check_one(name, value)
        except ValidationError as exc:
            errors.update(exc.message_dict)
            continue
        (secrets if name in kind.secrets else options)[name] = checked
    if (
        kind_name == "telegram"
        and "token" in secrets
        and not TELEGRAM_TOKEN.match(secrets["token"])
    ):
        errors.setdefault("token", ["A bot token looks like 123456789:AA… (from @BotFather)."])
    for name in kind.required:
        if name not in options and name not in secrets and name not in errors:
            errors[name] = [f"{KINDS[kind_name].label} needs this."]
    if errors:
        raise ValidationError(errors)
    return options, secrets

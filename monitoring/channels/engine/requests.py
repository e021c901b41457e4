"""The HTTP request each kind of channel makes for a message (built here, sent by `send`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from monitoring.channels.engine import template
from monitoring.channels.engine.message import (
    GOTIFY_PRIORITY,
    NTFY_PRIORITY,
    Message,
    ntfy_tag,
    priority,
)

JSON = {"Content-Type": "application/json; charset=utf-8"}
DISCORD_LIMIT = 2000  # characters of a message's content
TELEGRAM_LIMIT = 4096


@dataclass(frozen=True)
class Request:
    """One HTTP request: method, URL, headers, body."""

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


def _json(url: str, payload: Any, **headers: str) -> Request:
    """A POST of a JSON body."""
    body = json.dumps(payload, ensure_ascii=False).encode()
    return Request("POST", url, JSON | headers, body)


def _root(url: str) -> str:
    """A server's address without a trailing slash."""
    return url.rstrip("/")


def webhook(config: dict[str, Any], message: Message) -> Request:
    """The user's method, URL and headers; the body from their template (or the default)."""
    body = template.render(config.get("body_template") or template.DEFAULT, message.fields())
    headers = JSON | dict(config.get("headers") or {})
    return Request(config.get("method") or "POST", config["url"], headers, body.encode())


def ntfy(config: dict[str, Any], message: Message) -> Request:
    """ntfy's JSON publish to the server's root: topic, title, message, priority, tags."""
    payload = {
        "topic": config["topic"],
        "title": f"[nasui {message.host}] {message.headline}",
        "message": message.text or message.headline,
        "priority": priority(message, NTFY_PRIORITY, 3),
        "tags": [ntfy_tag(message)],
    }
    if message.link:
        payload["click"] = message.link
    auth = {"Authorization": f"Bearer {config['token']}"} if config.get("token") else {}
    return _json(_root(config["server"]) + "/", payload, **auth)


def gotify(config: dict[str, Any], message: Message) -> Request:
    """Gotify's message endpoint with the application's token in X-Gotify-Key."""
    payload = {
        "title": f"[nasui {message.host}] {message.headline}",
        "message": "\n\n".join(p for p in (message.text, message.link) if p) or message.headline,
        "priority": priority(message, GOTIFY_PRIORITY, 2),
    }
    return _json(_root(config["server"]) + "/message", payload, **{"X-Gotify-Key": config["token"]})


def slack(config: dict[str, Any], message: Message) -> Request:
    """An incoming webhook (Slack and Mattermost take the same `text`)."""
    return _json(config["url"], {"text": message.as_text()})


def telegram(config: dict[str, Any], message: Message) -> Request:
    """The Bot API's sendMessage to one chat."""
    url = f"{_root(config.get('api_url') or 'https://api.telegram.org')}/bot{config['token']}"
    payload = {
        "chat_id": config["chat_id"],
        "text": message.as_text(TELEGRAM_LIMIT),
        "disable_web_page_preview": True,
    }
    return _json(url + "/sendMessage", payload)


def discord(config: dict[str, Any], message: Message) -> Request:
    """A Discord webhook's `content`."""
    return _json(config["url"], {"content": message.as_text(DISCORD_LIMIT)})


BUILDERS: dict[str, Callable[[dict[str, Any], Message], Request]] = {
    "webhook": webhook,
    "ntfy": ntfy,
    "gotify": gotify,
    "slack": slack,
    "telegram": telegram,
    "discord": discord,
}


def build(kind: str, config: dict[str, Any], message: Message) -> Request:
    """The request channel `kind` with `config` (fields and secrets together) makes."""
    return BUILDERS[kind](config, message)

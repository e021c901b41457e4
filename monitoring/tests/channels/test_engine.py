"""The requests each kind of channel makes, the webhook template, and the input rules."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from monitoring.channels import validation
from monitoring.channels.engine import requests, template
from monitoring.channels.engine.message import Message
from monitoring.channels.engine.send import where

RAISED = Message(
    title='Pool "tank" is DEGRADED',
    text="A disk failed.\nReplace it.",
    level="danger",
    state="raised",
    host="nas",
    link="https://nas/alerts/",
    key="pool_health:tank",
    raised_at="2026-11-28T10:00:00+00:00",
)
CLEARED = Message(
    title="Pool tank is 85% full", text="Free space.", level="warning", state="cleared", host="nas"
)


def body(request: requests.Request) -> dict[str, Any]:
    """The request's JSON body."""
    loaded: dict[str, Any] = json.loads(request.body)
    return loaded


def test_the_template_escapes_values_so_any_alert_text_stays_json() -> None:
    text = template.render('{"t": "{{title}}", "x": "{{ text }}"}', RAISED.fields())
    assert json.loads(text) == {"t": RAISED.title, "x": RAISED.text}


def test_a_template_naming_an_unknown_field_or_not_json_is_refused_by_name() -> None:
    with pytest.raises(template.TemplateError, match=r"\{\{colour\}\} is not an alert field"):
        template.check('{"a": "{{colour}}"}', RAISED.fields())
    with pytest.raises(template.TemplateError, match="not JSON"):
        template.check('{"a": {{title}}}', RAISED.fields())


def test_ntfy_publishes_json_to_the_root_with_a_priority_that_wakes_for_danger_only() -> None:
    raised = requests.build(
        "ntfy", {"server": "https://ntfy.sh/", "topic": "t1", "token": "tk"}, RAISED
    )
    assert raised.url == "https://ntfy.sh/"
    assert raised.headers["Authorization"] == "Bearer tk"
    assert body(raised)["topic"] == "t1"
    assert body(raised)["priority"] == 5
    assert body(raised)["click"] == "https://nas/alerts/"
    cleared = requests.build("ntfy", {"server": "https://ntfy.sh", "topic": "t1"}, CLEARED)
    assert body(cleared)["priority"] == 3
    assert "Authorization" not in cleared.headers
    assert body(cleared)["title"] == "[nasui nas] Cleared: Pool tank is 85% full"


def test_gotify_telegram_discord_and_slack_requests() -> None:
    gotify = requests.build("gotify", {"server": "https://g.example", "token": "AbC"}, RAISED)
    assert gotify.url == "https://g.example/message"
    assert gotify.headers["X-Gotify-Key"] == "AbC"
    assert body(gotify)["priority"] == 8
    tg = requests.build(
        "telegram", {"token": "1:x", "chat_id": "-100", "api_url": "http://h:1"}, RAISED
    )
    assert tg.url == "http://h:1/bot1:x/sendMessage"
    assert body(tg)["chat_id"] == "-100"
    long = Message(title="t", text="y" * 5000, level="danger", state="raised", host="nas")
    assert len(body(requests.build("discord", {"url": "http://d"}, long))["content"]) == 2000
    assert body(requests.build("slack", {"url": "http://s"}, RAISED))["text"].startswith(
        '[nasui nas] DANGER: Pool "tank" is DEGRADED'
    )


def test_an_error_names_only_the_scheme_and_host_never_a_key_in_the_path() -> None:
    assert (
        where("https://user:pw@hooks.slack.com/services/T0/B0/SECRET") == "https://hooks.slack.com"
    )


@pytest.mark.parametrize(
    ("kind", "given", "field", "words"),
    [
        ("ntfy", {"server": "https://ntfy.sh", "topic": "a b"}, "topic", "1-64 letters"),
        ("ntfy", {"server": "ftp://x", "topic": "t"}, "server", "https://"),
        ("ntfy", {"server": "http://[x", "topic": "t"}, "server", "https://"),
        ("gotify", {"server": "http://g:99999", "token": "t"}, "server", "https://"),
        ("gotify", {"server": "https://g"}, "token", "needs this"),
        ("telegram", {"token": "123:short", "chat_id": "-1"}, "token", "@BotFather"),
        ("telegram", {"token": "123456:" + "a" * 35, "chat_id": "x y"}, "chat_id", "number"),
        ("webhook", {"url": "http://h", "headers": "Bad Name: 1"}, "headers", "not a header name"),
        (
            "webhook",
            {"url": "http://h", "headers": {"X-A": "a\r\nHost: evil"}},
            "headers",
            "one line",
        ),
        (
            "webhook",
            {"url": "http://h", "headers": {"Host": "evil"}},
            "headers",
            "set by the panel",
        ),
        ("webhook", {"url": "http://h", "body_template": "{{title}}"}, "body_template", "not JSON"),
        ("slack", {}, "url", "needs this"),
    ],
)
def test_bad_settings_are_refused_naming_the_field_and_the_rule(kind, given, field, words) -> None:
    with pytest.raises(ValidationError) as caught:
        validation.split_config(kind, given, {})
    assert field in caught.value.message_dict
    assert words in " ".join(caught.value.message_dict[field])


def test_a_secret_left_empty_keeps_the_stored_one_and_other_kinds_fields_are_dropped() -> None:
    options, secrets = validation.split_config(
        "ntfy",
        {"server": "https://n.example", "topic": "", "url": "http://ignored"},
        {"topic": "kept", "url": "old"},
    )
    assert options == {"server": "https://n.example"}
    assert secrets == {"topic": "kept"}

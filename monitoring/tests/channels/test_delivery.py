"""Alert events through each kind of channel to a real HTTP server: raised, cleared, limited,
retried and shown as failed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_httpserver import HTTPServer

from monitoring.alerting.services import lifecycle
from monitoring.channels.services import channels, delivery
from monitoring.metrics.engine.alerts import Alert
from monitoring.models import Notice

from .conftest import bodies

pytestmark = pytest.mark.django_db

DEGRADED = Alert("danger", "pool_health", "tank", "Pool tank is DEGRADED", "A disk failed.")
FULL = Alert("warning", "pool_full", "tank", "Pool tank is 85% full", "Free space.")
BOT = "123456789:AAE" + "x" * 32


def _settings(kind: str, server: HTTPServer) -> dict[str, Any]:
    """Each kind's settings pointing at the test server."""
    base = server.url_for("").rstrip("/")
    settings: dict[str, dict[str, Any]] = {
        "webhook": {
            "url": f"{base}/hook/secret-key",
            "headers": {"Authorization": "Bearer s3"},
            "body_template": '{"what": "{{headline}}", "state": "{{state}}"}',
        },
        "ntfy": {"server": base, "topic": "nas-alerts_x1", "token": "tk_1"},
        "gotify": {"server": base, "token": "AppToken.1"},
        "slack": {"url": f"{base}/services/T0/B0/K"},
        "telegram": {"token": BOT, "chat_id": "-1001", "api_url": base},
        "discord": {"url": f"{base}/api/webhooks/1/K"},
    }
    return settings[kind]


PATHS = {
    "webhook": "/hook/secret-key",
    "ntfy": "/",
    "gotify": "/message",
    "slack": "/services/T0/B0/K",
    "telegram": f"/bot{BOT}/sendMessage",
    "discord": "/api/webhooks/1/K",
}


def _text_of(kind: str, body: dict[str, Any]) -> str:
    """The words of a received message, wherever the kind puts them."""
    return {
        "webhook": lambda b: b["what"],
        "ntfy": lambda b: b["title"],
        "gotify": lambda b: b["title"],
        "slack": lambda b: b["text"],
        "telegram": lambda b: b["text"],
        "discord": lambda b: b["content"],
    }[kind](body)


@pytest.mark.parametrize("kind", list(PATHS))
def test_each_kind_gets_the_raising_and_the_clearing_on_its_own_endpoint(
    kind, receiver, fake_source
) -> None:
    receiver.expect_request(PATHS[kind], method="POST").respond_with_data("ok")
    channels.channel_create(
        name=kind, kind=kind, levels=["danger", "warning"], **_settings(kind, receiver)
    )
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    assert delivery.deliver_pending() == 1
    fake_source.clear()
    lifecycle.evaluate()
    assert delivery.deliver_pending() == 1
    assert delivery.deliver_pending() == 0  # nothing twice
    received = [_text_of(kind, b) for b in bodies(receiver)]
    assert "DANGER: Pool tank is DEGRADED" in received[0]
    assert "Cleared: Pool tank is DEGRADED" in received[1]
    assert len(received) == 2
    if kind == "webhook":
        assert receiver.log[0][0].headers["Authorization"] == "Bearer s3"
        assert bodies(receiver)[1]["state"] == "cleared"
    if kind == "gotify":
        assert receiver.log[0][0].headers["X-Gotify-Key"] == "AppToken.1"


def test_a_channel_gets_only_its_levels_and_a_rise_to_danger_is_announced(
    receiver, fake_source
) -> None:
    receiver.expect_request("/h").respond_with_data("ok")
    channels.channel_create(
        name="urgent", kind="slack", levels=["danger"], url=receiver.url_for("/h")
    )
    fake_source.append(FULL)
    lifecycle.evaluate()
    assert delivery.deliver_pending() == 0
    fake_source[0] = Alert(
        "danger", "pool_full", "tank", "Pool tank is 97% full", "Free space now."
    )
    lifecycle.evaluate()
    assert delivery.deliver_pending() == 1
    assert "DANGER: Pool tank is 97% full" in bodies(receiver)[0]["text"]


def test_an_alert_raised_while_the_channel_was_off_is_not_announced_late(
    receiver, fake_source
) -> None:
    receiver.expect_request("/h").respond_with_data("ok")
    channel = channels.channel_create(
        name="c", kind="slack", levels=["danger"], url=receiver.url_for("/h"), enabled=False
    )
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    delivery.deliver_pending()
    channels.channel_update(channel, enabled=True)
    assert delivery.deliver_pending() == 0
    assert receiver.log == []


def test_over_the_hourly_limit_the_rest_goes_in_one_digest_then_events_wait(
    receiver, fake_source
) -> None:
    receiver.expect_request("/h").respond_with_data("ok")
    channels.channel_create(name="c", kind="discord", levels=["danger"], url=receiver.url_for("/h"))
    fake_source.extend(Alert("danger", "k", f"d{i}", f"Disk d{i} failed", "") for i in range(25))
    lifecycle.evaluate()
    assert delivery.deliver_pending() == delivery.PER_HOUR
    contents = [b["content"] for b in bodies(receiver)]
    assert "6 alert events (digest)" in contents[-1]
    assert all("Disk d" in line for line in contents[-1].splitlines()[3:])
    fake_source.append(Alert("danger", "k", "late", "Disk late failed", ""))
    lifecycle.evaluate()
    assert delivery.deliver_pending() == 0  # the hour is spent: it waits
    later = timezone.now() + timedelta(hours=1, minutes=1)
    assert delivery.deliver_pending(later) == 1
    assert "Disk late failed" in bodies(receiver)[-1]["content"]


def test_a_refusing_service_is_retried_with_back_off_then_the_notice_is_shown_failed(
    receiver, fake_source, admin_client
) -> None:
    receiver.expect_request("/h").respond_with_data("invalid_token", status=403)
    channel = channels.channel_create(
        name="team", kind="slack", levels=["danger"], url=receiver.url_for("/h")
    )
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    now = timezone.now()
    assert delivery.deliver_pending(now) == 0
    notice = Notice.objects.get()
    assert notice.state == Notice.State.PENDING
    assert notice.attempts == 1
    assert notice.next_try_at == now + timedelta(seconds=delivery.RETRY_DELAYS[0])
    assert "answered 403" in notice.last_error
    assert "invalid_token" in notice.last_error
    assert "/h" not in notice.last_error  # the path may be the webhook's key
    delivery.deliver_pending(now + timedelta(seconds=30))  # before its time: not tried
    assert len(receiver.log) == 1
    for delay in delivery.RETRY_DELAYS:
        now += timedelta(seconds=delay)
        delivery.deliver_pending(now)
    notice.refresh_from_db()
    assert (notice.state, notice.attempts) == (Notice.State.FAILED, len(delivery.RETRY_DELAYS) + 1)
    assert len(receiver.log) == len(delivery.RETRY_DELAYS) + 1
    page = admin_client.get("/alerts/channels/").content.decode()
    assert 'data-testid="failed"' in page
    assert "Pool tank is DEGRADED" in page
    assert "403" in page
    # the service is fixed: "Send again" delivers it
    receiver.clear()
    receiver.expect_request("/h").respond_with_data("ok")
    admin_client.post(f"/alerts/channels/{channel.pk}/retry/")
    assert delivery.deliver_pending() == 1
    notice.refresh_from_db()
    assert notice.state == Notice.State.SENT


def test_an_unreachable_service_is_named_in_the_error(fake_source) -> None:
    channels.channel_create(
        name="gone", kind="gotify", levels=["danger"], server="http://127.0.0.1:9", token="t"
    )
    fake_source.append(DEGRADED)
    lifecycle.evaluate()
    delivery.deliver_pending()
    assert "could not reach http://127.0.0.1:9" in Notice.objects.get().last_error

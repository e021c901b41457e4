"""Alerts in the browser: the nav badge, dismissing with the keyboard, and a test mail that a
real SMTP server (aiosmtpd) receives."""

from __future__ import annotations

import pytest
from django.utils import timezone

from monitoring.models import AlertRecord
from monitoring.tests.alerting.conftest import Inbox, smtp_server  # noqa: F401 (fixture)
from nasui.health import record_worker_heartbeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open_alert(kind: str, level: str, title: str) -> None:
    now = timezone.now()
    AlertRecord.objects.create(key=f"{kind}:tank", source="pools", level=level, kind=kind,
                               subject="tank", title=title, text="Details.", raised_at=now,
                               seen_at=now)  # fmt: skip


def test_the_badge_counts_open_alerts_and_enter_dismisses_one(logged_in) -> None:
    page = logged_in
    record_worker_heartbeat()  # the worker answers: only the alerts made here are open
    _open_alert("pool_health", "danger", "Pool tank is DEGRADED")
    _open_alert("pool_full", "warning", "Pool tank is 85% full")
    page.reload()
    nav = page.get_by_role("list", name="Main")
    assert nav.get_by_test_id("nav-badge").inner_text().startswith("2")
    nav.get_by_role("link", name="Alerts").click()
    page.get_by_role("heading", name="Alerts", exact=True).wait_for()
    # the event stream has answered (open or refused): the list it reads again once is settled
    page.wait_for_function(
        "() => window.nasuiLive !== undefined && !document.querySelector('.htmx-request')"
    )
    dismiss = page.get_by_role("button", name="Dismiss: Pool tank is 85% full")
    dismiss.focus()
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="Dismissed, still open").wait_for()
    assert page.get_by_role("button", name="Dismiss: Pool tank is DEGRADED").is_visible()
    # the badge follows without a reload
    assert nav.get_by_test_id("nav-badge").inner_text().startswith("1")


def test_a_test_mail_from_the_settings_page_arrives(logged_in, smtp_server: Inbox) -> None:  # noqa: F811
    page = logged_in
    page.goto(page.base + "/alerts/mail/")
    page.get_by_label("Send alert e-mails").check()
    page.get_by_label("SMTP server").fill("127.0.0.1")
    page.get_by_label("Port").fill(str(smtp_server.port))
    page.get_by_label("Security").select_option("none")
    page.get_by_label("From address").fill("nas@example.com")
    page.get_by_label("To addresses").fill("owner@example.com")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("E-mail settings saved.").wait_for()
    page.get_by_role("button", name="Send test mail").click()
    page.get_by_text("Test mail sent to owner@example.com").wait_for()
    assert [m.recipients for m in smtp_server.mails] == [["owner@example.com"]]


def test_an_ntfy_channel_is_added_by_keyboard_and_its_test_message_arrives(logged_in) -> None:
    from pytest_httpserver import HTTPServer

    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/", method="POST").respond_with_json({"id": "1"})
    server.start()
    try:
        page = logged_in
        page.goto(page.base + "/alerts/")
        page.get_by_test_id("channels-link").click()
        page.get_by_test_id("no-channels").wait_for()
        page.get_by_test_id("add-channel").click()
        page.get_by_label("Name").fill("phone")
        page.get_by_label("Kind").select_option("ntfy")
        assert not page.get_by_label("Webhook URL").is_visible()  # another kind's field
        page.get_by_label("Server").fill(server.url_for("").rstrip("/"))
        page.get_by_label("Topic").fill("nas-alerts-7f3a")
        page.get_by_label("Topic").press("Enter")
        page.get_by_text("Channel phone added").wait_for()
        assert "nas-alerts-7f3a" not in page.content()  # the topic is a secret
        page.get_by_role("button", name="Send test message").click()
        page.get_by_text("Test message delivered to phone").wait_for()
        received = server.log[0][0].get_json()
        assert received["topic"] == "nas-alerts-7f3a"
        assert received["message"] == "If you read this, alerts will reach you here."
    finally:
        server.stop()

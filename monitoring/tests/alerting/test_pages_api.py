"""The Alerts page, the E-mail settings page and the alerts API, with good and bad input."""

from __future__ import annotations

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from monitoring.alerting.services import lifecycle
from monitoring.alerting.services.mail import mail_settings_get, mail_settings_update
from monitoring.metrics.engine.alerts import Alert
from monitoring.models import AlertRecord
from nasui.health import record_worker_heartbeat

from .conftest import Inbox

pytestmark = pytest.mark.django_db

DEGRADED = Alert("danger", "pool_health", "tank", "Pool tank is DEGRADED", "A disk failed.")
FULL = Alert("warning", "pool_full", "tank", "Pool tank is 85% full", "Free space.")


@pytest.fixture
def two_open(fake_source: list[Alert]) -> list[Alert]:
    fake_source.extend([DEGRADED, FULL])
    lifecycle.evaluate()
    return fake_source


def test_the_nav_shows_the_count_of_open_undismissed_alerts(admin_client, two_open) -> None:
    page = admin_client.get("/settings/").content.decode()
    assert 'data-testid="nav-badge">2<' in page
    AlertRecord.objects.filter(kind="pool_full").update(dismissed_at=timezone.now())
    page = admin_client.get("/settings/").content.decode()
    assert 'data-testid="nav-badge">1<' in page


def test_the_alerts_page_lists_open_ones_worst_first_with_dismiss_buttons(
    admin_client, two_open
) -> None:
    page = admin_client.get("/alerts/").content.decode()
    assert page.index("Pool tank is DEGRADED") < page.index("Pool tank is 85% full")
    assert 'data-level="danger"' in page
    assert 'data-level="warning"' in page
    assert page.count('aria-label="Dismiss: ') == 2
    assert "No cleared alerts yet." in page


def test_dismissing_from_the_page_moves_the_alert_out_of_the_open_list(
    admin_client, two_open
) -> None:
    alert = AlertRecord.objects.get(kind="pool_full")
    response = admin_client.post(f"/alerts/{alert.pk}/dismiss/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="dismissed-alerts"' in page
    assert page.count('aria-label="Dismiss: ') == 1
    assert 'data-testid="nav-badge" hx-swap-oob="true">1<' in page  # the nav badge follows
    alert.refresh_from_db()
    assert alert.dismissed_by is not None
    assert alert.dismissed_by.get_username() == "admin"


def test_a_cleared_alert_goes_to_the_history(admin_client, two_open) -> None:
    two_open.clear()
    lifecycle.evaluate()
    page = admin_client.get("/alerts/", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="alert-list"' in page
    assert "<html" not in page
    assert "No open alerts." in page
    assert "cleared" in page


def test_the_alerts_page_shows_a_dead_worker_by_itself(admin_client) -> None:
    page = admin_client.get("/alerts/").content.decode()
    assert "The background worker is unreachable" in page


def test_the_alerts_page_is_quiet_while_the_worker_answers(admin_client) -> None:
    record_worker_heartbeat()
    assert "No open alerts." in admin_client.get("/alerts/").content.decode()


def test_the_mail_page_saves_settings_and_never_shows_the_password(admin_client) -> None:
    form = {
        "enabled": "on",
        "host": "smtp.example.com",
        "port": "587",
        "security": "starttls",
        "username": "nas",
        "password": "hunter22",
        "from_address": "nas@example.com",
        "to_addresses": "a@example.com, b@example.com\nc@example.com",
        "ca_file": "",
    }
    response = admin_client.post("/alerts/mail/", form)
    assert response.status_code == 302
    config = mail_settings_get()
    assert config.to_addresses == ["a@example.com", "b@example.com", "c@example.com"]
    assert config.password == "hunter22"
    page = admin_client.get("/alerts/mail/").content.decode()
    assert "hunter22" not in page
    assert 'data-testid="password-stored"' in page
    admin_client.post("/alerts/mail/", {**form, "password": ""})
    assert mail_settings_get().password == "hunter22"  # empty keeps it


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"port": "70000"}, "port"),
        ({"security": "ssl3"}, "security"),
        ({"from_address": "not-an-address"}, "from_address"),
        ({"to_addresses": "owner@example.com, nobody"}, "to_addresses"),
        ({"host": ""}, "host"),
        ({"to_addresses": ""}, "to_addresses"),
        ({"ca_file": "/no/such/ca.pem"}, "ca_file"),
    ],
)
def test_bad_mail_settings_are_named_by_field_and_not_saved(admin_client, changes, field) -> None:
    form = {
        "enabled": "on",
        "host": "smtp.example.com",
        "port": "587",
        "security": "starttls",
        "from_address": "nas@example.com",
        "to_addresses": "owner@example.com",
        **changes,
    }
    response = admin_client.post("/alerts/mail/", form)
    assert response.status_code == 400
    assert f'data-field-error="{field}"' in response.content.decode()
    assert mail_settings_get().host == ""


def test_the_test_button_reports_the_outcome(admin_client, smtp_server: Inbox) -> None:
    mail_settings_update(
        enabled=True,
        host="127.0.0.1",
        port=smtp_server.port,
        security="none",
        from_address="nas@example.com",
        to_addresses=["o@example.com"],
    )
    page = admin_client.post("/alerts/mail/test/", follow=True).content.decode()
    assert "Test mail sent to o@example.com" in page
    assert len(smtp_server.mails) == 1


def test_the_test_button_says_what_is_missing(admin_client) -> None:
    page = admin_client.post("/alerts/mail/test/", follow=True).content.decode()
    assert "Test mail not sent: Save the server, sender, recipients first." in page


# -- API -------------------------------------------------------------------------------------
def test_the_api_lists_alerts_filtered_by_state(admin_client, two_open) -> None:
    record_worker_heartbeat()
    body = admin_client.get("/api/alerts/?state=open").json()
    assert [a["key"] for a in body["results"]] == ["pool_health:tank", "pool_full:tank"]
    assert body["results"][0]["level"] == "danger"
    assert admin_client.get("/api/alerts/?state=cleared").json()["count"] == 0


def test_the_api_refuses_an_unknown_state(admin_client) -> None:
    response = admin_client.get("/api/alerts/?state=sideways")
    assert response.status_code == 400
    assert "state" in response.json()["fields"]


def test_the_api_dismisses_an_alert_and_refuses_a_cleared_one(admin_client, two_open) -> None:
    alert = AlertRecord.objects.get(kind="pool_full")
    body = admin_client.post(f"/api/alerts/{alert.pk}/dismiss/").json()
    assert body["dismissed_by"] == "admin"
    assert body["dismissed_at"]
    two_open.clear()
    lifecycle.evaluate()
    response = admin_client.post(f"/api/alerts/{alert.pk}/dismiss/")
    assert response.status_code == 400
    assert admin_client.post("/api/alerts/999999/dismiss/").status_code == 404


def test_the_api_settings_keep_the_password_write_only(admin_client) -> None:
    body = {"enabled": True, "host": "smtp.example.com", "port": 465, "security": "tls",
            "username": "nas", "password": "hunter22", "from_address": "nas@example.com",
            "to_addresses": ["owner@example.com"]}  # fmt: skip
    response = admin_client.put("/api/alerts/mail/", body, content_type="application/json")
    assert response.status_code == 200, response.json()
    shown = admin_client.get("/api/alerts/mail/").json()
    assert "password" not in shown
    assert shown["has_password"] is True
    assert (shown["port"], shown["security"]) == (465, "tls")
    admin_client.put("/api/alerts/mail/", {"port": 2525}, content_type="application/json")
    assert (mail_settings_get().port, mail_settings_get().password) == (2525, "hunter22")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"port": 0}, "port"),
        ({"security": "ssl3"}, "security"),
        ({"to_addresses": ["nobody"]}, "to_addresses"),
        ({"from_address": "x"}, "from_address"),
        ({"enabled": True}, "host"),
    ],
)
def test_the_api_names_the_bad_field(admin_client, body, field) -> None:
    response = admin_client.put("/api/alerts/mail/", body, content_type="application/json")
    assert response.status_code == 400
    assert field in response.json()["fields"]


def test_the_api_test_mail_reports_success_or_the_smtp_error(
    admin_client, smtp_server: Inbox
) -> None:
    mail_settings_update(
        enabled=True,
        host="127.0.0.1",
        port=smtp_server.port,
        security="none",
        from_address="nas@example.com",
        to_addresses=["o@example.com"],
    )
    ok = admin_client.post("/api/alerts/mail/test/")
    assert ok.status_code == 200
    assert ok.json()["detail"].startswith("Test mail sent")
    mail_settings_update(security="starttls")
    failed = admin_client.post("/api/alerts/mail/test/")
    assert failed.status_code == 400
    assert "does not offer STARTTLS" in failed.json()["detail"]


def test_the_alert_endpoints_are_in_the_openapi_schema() -> None:
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert {"/api/alerts/", "/api/alerts/{id}/dismiss/", "/api/alerts/mail/",
            "/api/alerts/mail/test/"} <= set(paths)  # fmt: skip
    assert "put" in paths["/api/alerts/mail/"]


def test_the_alerts_page_works_while_redis_is_down(admin_client, monkeypatch) -> None:
    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("redis is gone")

    monkeypatch.setattr("django.core.cache.cache.add", down)
    monkeypatch.setattr("nasui.health.cache.get", down)
    page = admin_client.get("/alerts/").content.decode()
    assert "Redis, which carries its work, does not answer" in page

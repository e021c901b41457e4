"""Mail against a real SMTP server (aiosmtpd on 127.0.0.1): test mail, login, STARTTLS, TLS,
one mail per raise and per clear, the hourly limit with its digest, failures recorded."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from monitoring.alerting.services import lifecycle, outbox
from monitoring.alerting.services.mail import (
    mail_settings_get,
    mail_settings_update,
    send_test_mail,
)
from monitoring.metrics.engine.alerts import Alert
from monitoring.models import AlertRecord, MailState, SentMail
from nasui.lib.net import free_loopback_port

from .conftest import PASSWORD, USER, Inbox

pytestmark = pytest.mark.django_db

TO = ["owner@example.com", "backup@example.com"]


def configure(port: int, **changes: object) -> None:
    values = {"enabled": True, "host": "127.0.0.1", "port": port, "security": "none",
              "from_address": "nas@example.com", "to_addresses": TO, **changes}  # fmt: skip
    mail_settings_update(**values)  # type: ignore[arg-type]


def degraded(pool: str) -> Alert:
    return Alert("danger", "pool_health", pool, f"Pool {pool} is DEGRADED", "A disk failed.")


def test_a_test_mail_reaches_every_recipient(smtp_server: Inbox) -> None:
    configure(smtp_server.port)
    assert send_test_mail() == (
        f"Test mail sent to {', '.join(TO)} through 127.0.0.1:{smtp_server.port}."
    )
    (mail,) = smtp_server.mails
    assert (mail.sender, mail.recipients, mail.subject) == (
        "nas@example.com",
        TO,
        "[nasui] Test mail",
    )
    assert "test mail from nasui" in mail.body
    assert mail_settings_get().last_sent_at is not None


def test_a_login_is_made_with_the_stored_password(
    smtp_login_server: Inbox, certificate: tuple[Path, Path]
) -> None:
    tls = {"security": "starttls", "ca_pem": certificate[0].read_bytes(), "username": USER}
    configure(smtp_login_server.port, password=PASSWORD, **tls)
    configure(smtp_login_server.port, password="", **tls)  # empty keeps the stored password
    send_test_mail()
    assert smtp_login_server.logins == [USER]
    assert len(smtp_login_server.mails) == 1


def test_a_wrong_password_is_reported_in_words_and_recorded(
    smtp_login_server: Inbox, certificate: tuple[Path, Path]
) -> None:
    tls = {"security": "starttls", "ca_pem": certificate[0].read_bytes(), "username": USER}
    configure(smtp_login_server.port, password="wrong", **tls)
    with pytest.raises(ValidationError) as caught:
        send_test_mail()
    assert "refused the user name or password" in caught.value.messages[0]
    assert "refused the user name or password" in mail_settings_get().last_error
    assert smtp_login_server.mails == []


def test_starttls_with_the_servers_ca_file_delivers(
    starttls_server: Inbox, certificate: tuple[Path, Path]
) -> None:
    configure(starttls_server.port, security="starttls", ca_pem=certificate[0].read_bytes())
    send_test_mail()
    assert [m.subject for m in starttls_server.mails] == ["[nasui] Test mail"]


def test_starttls_to_an_unknown_certificate_is_refused(starttls_server: Inbox) -> None:
    configure(starttls_server.port, security="starttls")
    with pytest.raises(ValidationError) as caught:
        send_test_mail()
    assert "certificate of 127.0.0.1" in caught.value.messages[0]
    assert "could not be verified" in caught.value.messages[0]
    assert starttls_server.mails == []


def test_tls_from_the_start_delivers(tls_server: Inbox, certificate: tuple[Path, Path]) -> None:
    configure(tls_server.port, security="tls", ca_pem=certificate[0].read_bytes())
    send_test_mail()
    assert len(tls_server.mails) == 1


def test_starttls_asked_of_a_server_without_it_is_explained(smtp_server: Inbox) -> None:
    configure(smtp_server.port, security="starttls")
    with pytest.raises(ValidationError, match="does not offer STARTTLS"):
        send_test_mail()


def test_a_closed_port_is_explained() -> None:
    port = free_loopback_port()
    configure(port)
    with pytest.raises(ValidationError, match=f"127.0.0.1:{port} refused the connection"):
        send_test_mail()


def test_one_mail_when_an_alert_is_raised_and_one_when_it_clears(
    smtp_server: Inbox, fake_source: list[Alert]
) -> None:
    configure(smtp_server.port)
    fake_source.append(degraded("tank"))
    lifecycle.evaluate()
    lifecycle.evaluate()  # seen again: no second mail
    assert outbox.deliver_pending() == 1
    assert outbox.deliver_pending() == 0
    fake_source.clear()
    lifecycle.evaluate()
    assert outbox.deliver_pending() == 1
    raised, cleared = smtp_server.mails
    assert raised.subject.endswith("] DANGER: Pool tank is DEGRADED")
    assert "A disk failed." in raised.body
    assert raised.recipients == TO
    assert cleared.subject.endswith("] Cleared: Pool tank is DEGRADED")
    assert "The condition has ended." in cleared.body
    alert = AlertRecord.objects.get()
    assert (alert.raise_mail, alert.clear_mail) == (MailState.SENT, MailState.SENT)


def test_over_the_hourly_limit_the_rest_is_one_digest_then_held(
    smtp_server: Inbox, fake_source: list[Alert]
) -> None:
    configure(smtp_server.port)
    now = timezone.now()
    fake_source.extend(degraded(f"pool{i:02d}") for i in range(25))
    lifecycle.evaluate(now=now)
    assert outbox.deliver_pending(now) == outbox.MAILS_PER_HOUR
    assert len(smtp_server.mails) == 20
    digest = smtp_server.mails[-1]
    assert digest.subject.endswith("] 6 alert events (digest)")
    assert all(f"Pool pool{i:02d} is DEGRADED" in digest.body for i in range(19, 25))
    fake_source.clear()
    lifecycle.evaluate(now=now + timedelta(minutes=1))  # 25 clear events: the hour is spent
    assert outbox.deliver_pending(now + timedelta(minutes=1)) == 0
    assert AlertRecord.objects.filter(clear_mail=MailState.PENDING).count() == 25
    later = now + timedelta(minutes=61)  # the hour rolled on: held events go out
    assert outbox.deliver_pending(later) == 20
    assert AlertRecord.objects.filter(clear_mail=MailState.PENDING).count() == 0
    assert SentMail.objects.exclude(kind="test").count() == 40


def test_a_failed_delivery_is_recorded_and_retried_later(
    smtp_server: Inbox, fake_source: list[Alert]
) -> None:
    configure(free_loopback_port())  # nothing listens there
    fake_source.append(degraded("tank"))
    lifecycle.evaluate()
    assert outbox.deliver_pending() == 0
    assert "refused the connection" in mail_settings_get().last_error
    assert AlertRecord.objects.get().raise_mail == MailState.PENDING
    configure(smtp_server.port)
    assert outbox.deliver_pending() == 1
    assert len(smtp_server.mails) == 1


def test_turning_mail_off_marks_waiting_events_unsent(
    fake_source: list[Alert],
) -> None:
    configure(free_loopback_port())
    fake_source.append(degraded("tank"))
    lifecycle.evaluate()
    mail_settings_update(enabled=False)
    assert outbox.deliver_pending() == 0
    assert AlertRecord.objects.get().raise_mail == MailState.OFF

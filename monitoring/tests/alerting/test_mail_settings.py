"""The e-mail settings: the panel's link in every mail, a password sent in clear text, clearing
the stored password, and the CA certificate (uploaded, or a path that reveals nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from monitoring.alerting.services import ca, outbox
from monitoring.alerting.services.mail import (
    mail_settings_get,
    mail_settings_update,
    panel_link,
    send_test_mail,
)
from monitoring.models import AlertRecord

from .conftest import Inbox

pytestmark = pytest.mark.django_db

FORM = {
    "enabled": "on",
    "host": "smtp.example.com",
    "port": "25",
    "security": "none",
    "username": "nas",
    "password": "hunter22",
    "from_address": "nas@example.com",
    "to_addresses": "owner@example.com",
}


def _event(pool: str = "tank") -> outbox.Event:
    now = timezone.now()
    alert = AlertRecord.objects.create(
        key=f"pool_health:{pool}", source="pools", level="danger", kind="pool_health",
        subject="tank", title="Pool tank is DEGRADED", text="A disk failed.",
        raised_at=now, seen_at=now,
    )  # fmt: skip
    return outbox.Event(alert, cleared=False)


# -- the panel's address in every mail ------------------------------------------------------
def test_an_alert_mail_links_to_the_alerts_page_at_the_panels_address() -> None:
    config = mail_settings_update(panel_url="https://nas.example.com/")
    _, body = outbox.compose(_event(), panel_link(config))
    assert "Open the panel: https://nas.example.com/alerts/" in body
    _, digest = outbox.compose_digest([_event("data")], panel_link(config))
    assert "Open the panel: https://nas.example.com/alerts/" in digest


def test_without_a_panel_address_the_trusted_origin_is_used(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://nas.lan"]
    link = panel_link(mail_settings_get())
    assert link == "Open the panel: https://nas.lan/alerts/"


def test_with_no_known_address_the_mail_says_where_to_look_instead_of_a_broken_link(
    settings,
) -> None:
    settings.CSRF_TRUSTED_ORIGINS = []
    link = panel_link(mail_settings_get())
    assert "://" not in link
    assert "the Alerts page (/alerts/) at the address you use to log in" in link
    assert "E-mail settings" in link


def test_the_test_mail_carries_the_link_too(smtp_server: Inbox) -> None:
    mail_settings_update(
        enabled=True, host="127.0.0.1", port=smtp_server.port, security="none",
        from_address="nas@example.com", to_addresses=["o@example.com"],
        panel_url="https://nas.example.com",
    )  # fmt: skip
    send_test_mail()
    assert "Open the panel: https://nas.example.com/alerts/" in smtp_server.mails[0].body


def test_a_panel_address_must_be_a_web_address(admin_client) -> None:
    response = admin_client.post("/alerts/mail/", {**FORM, "panel_url": "nas.example.com"})
    assert response.status_code == 400
    assert 'data-field-error="panel_url"' in response.content.decode()


# -- plain SMTP with a password ---------------------------------------------------------------
def test_saving_a_password_over_plain_smtp_warns_that_it_travels_in_clear_text(
    admin_client,
) -> None:
    page = admin_client.post("/alerts/mail/", FORM, follow=True).content.decode()
    assert "E-mail settings saved." in page
    assert "the SMTP password crosses the network to smtp.example.com in clear text" in page
    safe = admin_client.post("/alerts/mail/", {**FORM, "security": "starttls"}, follow=True)
    assert "clear text" not in safe.content.decode()


def test_the_api_answer_carries_the_clear_text_warning(admin_client) -> None:
    body = {"host": "smtp.example.com", "port": 25, "security": "none", "username": "nas",
            "password": "hunter22"}  # fmt: skip
    answer = admin_client.put("/api/alerts/mail/", body, content_type="application/json").json()
    assert len(answer["warnings"]) == 1
    assert "clear text" in answer["warnings"][0]
    answer = admin_client.patch(
        "/api/alerts/mail/", {"security": "tls", "port": 465}, content_type="application/json"
    ).json()
    assert answer["warnings"] == []


# -- clearing the stored password -------------------------------------------------------------
def test_the_clear_box_forgets_the_stored_password_and_blank_still_keeps_it(admin_client) -> None:
    admin_client.post("/alerts/mail/", {**FORM, "security": "starttls"})
    admin_client.post("/alerts/mail/", {**FORM, "security": "starttls", "password": ""})
    assert mail_settings_get().password == "hunter22"
    response = admin_client.post("/alerts/mail/", {**FORM, "password": "", "clear_password": "on"})
    assert response.status_code == 302
    assert mail_settings_get().password == ""
    assert mail_settings_get().username == "nas"


def test_a_new_password_and_the_clear_box_together_are_refused(admin_client) -> None:
    response = admin_client.post("/alerts/mail/", {**FORM, "clear_password": "on"})
    assert response.status_code == 400
    assert 'data-field-error="clear_password"' in response.content.decode()


@pytest.mark.parametrize("body", [{"password": None}, {"password": "", "clear_password": True}])
def test_the_api_clears_the_password_with_null_or_the_flag(admin_client, body) -> None:
    mail_settings_update(username="nas", password="hunter22")
    admin_client.patch("/api/alerts/mail/", {"password": ""}, content_type="application/json")
    assert mail_settings_get().password == "hunter22"  # empty still keeps it
    answer = admin_client.patch("/api/alerts/mail/", body, content_type="application/json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["has_password"] is False
    assert mail_settings_get().password == ""


# -- the CA certificate ------------------------------------------------------------------------
def test_an_uploaded_pem_certificate_is_kept_in_the_data_dir_and_used(
    admin_client, certificate: tuple[Path, Path], data_dir: Path
) -> None:
    upload = SimpleUploadedFile("ca.pem", certificate[0].read_bytes())
    response = admin_client.post("/alerts/mail/", {**FORM, "ca_pem": upload})
    assert response.status_code == 302
    stored = Path(mail_settings_get().ca_file)
    assert stored.parent == data_dir / ca.UPLOAD_DIR
    assert stored.read_bytes() == certificate[0].read_bytes()
    assert admin_client.post("/alerts/mail/", {**FORM, "ca_file": str(stored)}).status_code == 302


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"hello, I am not a certificate", "Not a PEM certificate"),
        (b"-----BEGIN CERTIFICATE-----\nbm9wZQ==\n-----END CERTIFICATE-----\n", "damaged"),
    ],
)
def test_an_upload_that_is_not_a_pem_certificate_is_refused_in_words(
    admin_client, content: bytes, words: str
) -> None:
    upload = SimpleUploadedFile("ca.pem", content)
    response = admin_client.post("/alerts/mail/", {**FORM, "ca_pem": upload})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="ca_pem"' in page
    assert words in page
    assert mail_settings_get().host == ""


def test_a_private_key_beside_the_certificate_is_refused(certificate: tuple[Path, Path]) -> None:
    both = certificate[0].read_bytes() + certificate[1].read_bytes()
    with pytest.raises(ValidationError) as caught:
        mail_settings_update(ca_pem=both)
    assert "private key" in caught.value.message_dict["ca_pem"][0]


def test_the_api_takes_the_ca_certificate_as_pem_text(
    admin_client, certificate: tuple[Path, Path]
) -> None:
    body = {"ca_pem": certificate[0].read_text()}
    answer = admin_client.patch("/api/alerts/mail/", body, content_type="application/json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["ca_file"].endswith(f"{ca.UPLOAD_DIR}/{ca.UPLOAD_NAME}")
    refused = admin_client.patch(
        "/api/alerts/mail/", {"ca_pem": "not pem"}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert "ca_pem" in refused.json()["fields"]


@pytest.mark.parametrize(
    "path",
    [
        "/etc/shadow",  # exists, outside the certificate folders
        "/etc/hostname",
        "/etc/ssl/certs/../../shadow",  # climbs out of an allowed folder
        "/etc/ssl/certs/no-such-ca.pem",  # inside, missing
        "/no/such/ca.pem",
        "relative/ca.pem",
    ],
)
def test_a_ca_path_tells_nothing_about_files_outside_the_certificate_folders(
    admin_client, path: str
) -> None:
    response = admin_client.post("/alerts/mail/", {**FORM, "ca_file": path})
    assert response.status_code == 400
    page = response.content.decode()
    assert ca.NOT_FOUND.replace("'", "&#x27;") in page


def test_a_symlink_into_the_uploads_folder_pointing_at_a_secret_is_refused(
    data_dir: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.pem"
    secret.write_text("-----BEGIN CERTIFICATE-----\n")
    folder = data_dir / ca.UPLOAD_DIR
    folder.mkdir(parents=True)
    (folder / "link.pem").symlink_to(secret)
    assert ca.ca_file_problem(str(folder / "link.pem")) == ca.NOT_FOUND


def test_a_system_ca_bundle_is_accepted() -> None:
    bundles = sorted(Path("/etc/ssl/certs").glob("*.pem"))
    if not bundles:
        pytest.skip("no system CA certificates on this machine")
    assert ca.ca_file_problem(str(bundles[0])) == ""

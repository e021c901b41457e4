"""The web certificate through the service, the API and the page: an uploaded pair checked then
served, refusals on their field changing nothing, a new self-signed one on demand."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from system.certificates import runtime, selectors, services
from system.certificates.engine import certs, files
from system.tests.certs_helpers import certificate, issued, key_pem, other_key

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    settings.NASUI_WEB_SERVER = "none"
    return tmp_path


@pytest.fixture
def served(data_dir: Path) -> bytes:
    """The self-signed pair a first boot leaves."""
    files.ensure(data_dir, selectors.box_names(), datetime.now(UTC))
    return files.current(data_dir) or b""


def ours() -> list[str]:
    return [selectors.box_names()[0] + ".home.example"]


def test_an_issued_pair_is_served(served, data_dir) -> None:
    chain, key = issued(ours())
    info = services.certificate_upload(certificate=chain, key=key)
    assert not info.self_signed
    assert files.current(data_dir) == chain
    assert (data_dir / "tls" / "key.pem").read_bytes() == key
    assert (data_dir / "tls" / "previous-cert.pem").read_bytes() == served


def test_a_pair_for_another_box_changes_nothing(served, data_dir) -> None:
    chain, key = issued(["printer.example"])
    with pytest.raises(ValidationError) as refused:
        services.certificate_upload(certificate=chain, key=key)
    assert "not this box" in refused.value.message_dict["certificate"][0]
    assert files.current(data_dir) == served


def test_a_web_server_that_refuses_gets_the_pair_before_back(served, data_dir, monkeypatch) -> None:
    calls: list[bytes | None] = []

    def reload() -> bool:  # nginx -t refuses what is in place, then takes the pair put back
        calls.append(files.current(data_dir))
        if len(calls) == 1:
            raise runtime.WebServerError("nginx: [emerg] cannot load certificate")
        return True

    monkeypatch.setattr(runtime, "reload_web_server", reload)
    chain, key = issued(ours())
    with pytest.raises(ValidationError, match="cannot load certificate"):
        services.certificate_upload(certificate=chain, key=key)
    assert calls == [chain, served]
    assert files.current(data_dir) == served


def test_the_api_shows_takes_and_refuses(admin_client, served) -> None:
    shown = admin_client.get("/api/system/certificate/").json()
    assert shown["self_signed"] is True
    assert shown["names"] == selectors.box_names()
    pem, key = certificate(ours())
    body = {"certificate": pem.decode(), "key": key_pem(key).decode()}
    taken = admin_client.put("/api/system/certificate/", body, content_type="application/json")
    assert taken.status_code == 200, taken.content
    assert taken.json()["names"] == ours()
    assert "key" not in taken.json()
    other = other_key().decode()
    wrong = admin_client.put(
        "/api/system/certificate/", {**body, "key": other}, content_type="application/json"
    )
    assert wrong.status_code == 400
    assert "does not belong" in str(wrong.json()["fields"]["key"])
    again = admin_client.post("/api/system/certificate/self-signed/")
    assert again.status_code == 200
    assert again.json()["self_signed"] is True
    assert again.json()["fingerprint"] != shown["fingerprint"]


def test_the_page_uploads_and_says_why_not(admin_client, served, data_dir) -> None:
    page = admin_client.get("/system/certificate/")
    assert b"Self-signed" in page.content
    assert b"Make a new self-signed certificate" in page.content
    chain, key = issued(ours())
    files_in = {
        "certificate": SimpleUploadedFile("fullchain.pem", chain),
        "key": SimpleUploadedFile("privkey.pem", other_key()),
    }
    refused = admin_client.post("/system/certificate/", files_in)
    assert refused.status_code == 400
    assert b"This key does not belong to the certificate." in refused.content
    files_in = {
        "certificate": SimpleUploadedFile("fullchain.pem", chain),
        "key": SimpleUploadedFile("privkey.pem", key),
    }
    done = admin_client.post("/system/certificate/", files_in, follow=True)
    assert b"is now served with the certificate for" in done.content
    assert b"Issued by a certificate authority" in done.content
    made = admin_client.post("/system/certificate/self-signed/", follow=True)
    assert b"A new self-signed certificate" in made.content
    assert certs.read(files.current(data_dir) or b"").self_signed


def test_no_certificate_yet_is_said(admin_client) -> None:
    missing = admin_client.get("/api/system/certificate/")
    assert missing.status_code == 404
    assert "No web certificate yet" in missing.json()["detail"]
    assert b"No certificate yet" in admin_client.get("/system/certificate/").content


def test_the_appliance_console_shows_the_new_fingerprint(
    served, settings, tmp_path, monkeypatch
) -> None:
    settings.NASUI_WEB_SERVER = "nginx"
    banner = tmp_path / "nasui-banner"
    banner.write_text("#!/bin/sh\n")
    ran: list[list[str]] = []

    def run(argv: list[str], timeout: float) -> str:
        ran.append(list(argv))
        return ""

    monkeypatch.setattr(runtime, "CONSOLE_BANNER", banner)
    monkeypatch.setattr(runtime, "run_checked", run)
    services.certificate_self_signed()
    assert ran[-2:] == [[str(banner)], ["agetty", "--reload"]]  # after nginx -t and the reload
    ran.clear()
    chain, key = issued(["printer.example"])
    with pytest.raises(ValidationError):
        services.certificate_upload(certificate=chain, key=key)
    assert ran == []  # a refused pair: nothing served, nothing shown

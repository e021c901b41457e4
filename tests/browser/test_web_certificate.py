"""The web certificate in Chromium: what is served, a wrong key refused on its field, an issued
pair taken, then a new self-signed certificate after the question."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from system.certificates import selectors
from system.certificates.engine import files
from system.tests.certs_helpers import issued, key_pem

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path / "data"
    settings.NASUI_WEB_SERVER = "none"
    files.ensure(settings.DATA_DIR, selectors.box_names(), datetime.now(UTC))
    return settings.DATA_DIR


def test_upload_a_certificate_then_make_a_self_signed_one(logged_in, tmp_path: Path) -> None:
    host = selectors.box_names()[0]
    chain, key = issued([f"{host}.home.example"])
    (tmp_path / "fullchain.pem").write_bytes(chain)
    (tmp_path / "privkey.pem").write_bytes(key)
    (tmp_path / "other.pem").write_bytes(key_pem(ec.generate_private_key(ec.SECP256R1())))
    page = logged_in
    page.get_by_role("list", name="Main").get_by_role("link", name="System").click()
    page.get_by_role("link", name="Web certificate").click()
    current = page.get_by_test_id("certificate-current")
    assert "Self-signed" in current.inner_text()

    form = page.get_by_test_id("certificate-form")
    form.get_by_label("Certificate").set_input_files(str(tmp_path / "fullchain.pem"))
    form.get_by_label("Private key").set_input_files(str(tmp_path / "other.pem"))
    form.get_by_role("button", name="Use this certificate").click()
    error = page.locator('[data-field-error="key"]')
    error.wait_for()
    assert "does not belong to the certificate" in error.inner_text()

    form = page.get_by_test_id("certificate-form")
    form.get_by_label("Certificate").set_input_files(str(tmp_path / "fullchain.pem"))
    form.get_by_label("Private key").set_input_files(str(tmp_path / "privkey.pem"))
    form.get_by_role("button", name="Use this certificate").click()
    page.get_by_text("is now served with the certificate for").wait_for()
    assert f"{host}.home.example" in page.get_by_test_id("certificate-names").inner_text()

    questions: list[str] = []

    def answer(dialog) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.get_by_role("button", name="Make a new self-signed certificate").click()
    page.get_by_text("A new self-signed certificate for").wait_for()
    assert "Browsers will ask to trust it again" in questions[0]
    assert "Self-signed" in page.get_by_test_id("certificate-current").inner_text()

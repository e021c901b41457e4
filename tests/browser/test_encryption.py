"""An encrypted dataset from the form (strength meter, typed twice, never shown back), then
locked and unlocked from its encryption page."""

from __future__ import annotations

import pytest

from storage.engine import get_engine

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSPHRASE = "Correct horse battery staple, 42 times!"


def test_create_an_encrypted_dataset_then_lock_and_unlock_it(logged_in, sandbox_tank):
    page = logged_in
    page.goto(page.base + "/storage/datasets/create/?parent=tank")
    page.get_by_label("Name", exact=True).fill("vault")
    assert not page.get_by_label("Passphrase", exact=True).is_visible()
    page.get_by_label("Encryption").select_option("passphrase")
    box = page.get_by_label("Passphrase", exact=True)
    box.fill("short")
    assert "Too short" in page.get_by_test_id("strength").inner_text()
    box.fill(PASSPHRASE)
    assert page.get_by_test_id("strength").inner_text().startswith("Strong")
    page.get_by_label("Passphrase again").fill(PASSPHRASE + "?")
    page.get_by_role("button", name="Create dataset").click()
    page.get_by_text("The two passphrases differ").wait_for()
    assert page.get_by_label("Passphrase", exact=True).input_value() == ""  # never shown back
    assert PASSPHRASE not in page.content()

    page.get_by_label("Passphrase", exact=True).fill(PASSPHRASE)
    page.get_by_label("Passphrase again").fill(PASSPHRASE)
    page.get_by_role("button", name="Create dataset").click()
    row = page.locator('tr[data-dataset="tank/vault"]')
    row.wait_for()
    row.get_by_test_id("encryption-badge").click()

    assert page.get_by_test_id("key-state").inner_text() == "Unlocked"
    questions: list[str] = []

    def answer(dialog) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.get_by_role("button", name="Lock").click()
    page.get_by_text("tank/vault is locked").wait_for()
    assert "stop being served" in questions[0]
    assert page.get_by_test_id("key-state").inner_text() == "Locked"

    page.get_by_label("Passphrase", exact=True).fill("not the passphrase")
    page.get_by_role("button", name="Unlock").click()
    page.get_by_text("does not unlock it").wait_for()
    page.get_by_label("Passphrase", exact=True).fill(PASSPHRASE)
    page.get_by_role("button", name="Unlock").click()
    page.get_by_text("tank/vault is unlocked").wait_for()
    assert page.get_by_test_id("key-state").inner_text() == "Unlocked"
    assert not get_engine().get_dataset("tank/vault").locked

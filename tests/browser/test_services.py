"""The Services page stops and starts the panel's real smbd (wrapped), and shows the change."""

from __future__ import annotations

import pytest

from sharing.smb import runtime as files_runtime
from tests.smb.live_tools import require_live

pytestmark = [pytest.mark.browser, pytest.mark.smb, pytest.mark.django_db(transaction=True)]


def test_stop_asks_first_then_stops_smbd_and_start_brings_it_back(logged_in, smb_service):
    require_live()
    page = logged_in
    questions: list[str] = []

    def answer(dialog):
        """Note the confirmation's question and accept it."""
        questions.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    page.get_by_role("list", name="Main").get_by_role("link", name="Services").click()
    page.wait_for_url("**/services/")
    row = page.locator('tr[data-service="smb"]')
    row.get_by_text("running").wait_for()  # the click navigates: wait for the new page
    assert (
        row.get_by_role("switch", name="Start SMB at boot").get_attribute("aria-checked") == "true"
    )

    row.get_by_role("button", name="Stop SMB").click()
    page.get_by_text("SMB service: stop done, now stopped.").wait_for()
    assert questions == ["Stop the SMB service? Open files on every client are closed."]
    assert page.locator('tr[data-service="smb"]').get_by_text("stopped").is_visible()
    assert not files_runtime.smb_engine().is_running()

    page.locator('tr[data-service="smb"]').get_by_role("button", name="Start SMB").click()
    page.get_by_text("SMB service: start done, now running.").wait_for()
    assert files_runtime.smb_engine().is_running()
    assert len(questions) == 1  # Start does not ask

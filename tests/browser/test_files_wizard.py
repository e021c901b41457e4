"""From an empty pool to a share a real SMB client writes to, through the wizard in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import selectors as storage
from tests.smb.live_tools import require_live
from tests.smb.smb_clients import SmbClient

pytestmark = [pytest.mark.browser, pytest.mark.smb, pytest.mark.django_db(transaction=True)]
PASSWORD = "mum secret 12"


def test_the_wizard_shares_a_new_dataset_a_new_user_then_writes_to(
    logged_in, tank, smb_service, tmp_path: Path
):
    require_live()
    page = logged_in
    page.goto(page.base + "/sharing/files/")
    page.get_by_text("No SMB shares yet").wait_for()
    page.get_by_role("link", name="Share a dataset").first.click()
    page.get_by_label("In pool or dataset").select_option("tank")
    page.get_by_label("Name", exact=True).fill("family")
    page.get_by_label("Compression").select_option("lz4")
    page.get_by_label("Or a new user").fill("mum")
    page.get_by_label("New user's password").fill(PASSWORD)
    page.get_by_role("button", name="Save").click()
    page.get_by_text("tank/family is shared as “family”").wait_for()
    assert page.locator('tr[data-share="family"]').is_visible()
    assert PASSWORD not in page.content()

    (tmp_path / "letter.txt").write_text("dear all")
    client = SmbClient(smb_service, tmp_path)
    wrote = client.run("family", "put letter.txt", user="mum", password=PASSWORD)
    assert wrote.ok, wrote.output
    folder = Path(storage.dataset_get("tank/family").mountpoint or "")
    assert (folder / "letter.txt").read_text() == "dear all"
    stranger = client.run("family", "ls", user="mum", password="not the pass 1")
    assert not stranger.ok

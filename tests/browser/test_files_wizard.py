"""From an empty pool to a share a real SMB client writes to, through the wizard in Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sharing.models import LocalUser
from storage.datasets import selectors as storage
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
    page.get_by_label("The password again").fill(PASSWORD)
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


def test_the_wizard_shares_over_smb_and_nfs_with_everyone_as_the_new_user(
    logged_in, tank, smb_service, tmp_path: Path
):
    require_live()
    page = logged_in
    page.goto(page.base + "/sharing/files/")
    page.get_by_role("link", name="Share a dataset").first.click()
    networks = page.get_by_label("Networks")
    assert networks.is_hidden()  # NFS's part shows only once NFS is ticked
    page.get_by_label("NFS", exact=True).focus()
    page.keyboard.press("Space")
    networks.wait_for()
    page.get_by_label("In pool or dataset").select_option("tank")
    page.get_by_label("Name", exact=True).fill("home")
    page.get_by_label("Or a new user").fill("mum")
    page.get_by_label("New user's password").fill(PASSWORD)
    page.get_by_label("The password again").fill(PASSWORD)
    networks.fill("192.168.1.0/24")
    page.get_by_label("Map to user").wait_for(state="hidden")
    page.get_by_label("Root and other users").select_option("all")
    assert page.get_by_label("Map to user").input_value() == ""  # the new user above
    page.get_by_role("button", name="Save").click()

    page.get_by_text("tank/home is shared as “home” over SMB for mum (connect to").wait_for()
    folder = storage.dataset_get("tank/home").mountpoint or ""
    said = page.locator("#messages").inner_text()
    assert f"over NFS at {folder} to 192.168.1.0/24 (everyone as mum)" in said
    assert f"(mount <this NAS's address>:{folder})" in said
    export = page.locator('tr[data-export="tank/home"]')
    assert export.is_visible()
    assert "192.168.1.0/24" in export.inner_text()
    assert "all → mum" in export.inner_text()
    assert page.locator('tr[data-share="home"]').is_visible()
    assert PASSWORD not in page.content()

    # Everyone over NFS is mum, so the folder is hers: she writes to it over SMB too.
    (tmp_path / "note.txt").write_text("milk")
    wrote = SmbClient(smb_service, tmp_path).run(
        "home", "put note.txt", user="mum", password=PASSWORD
    )
    assert wrote.ok, wrote.output
    assert (Path(folder) / "note.txt").read_text() == "milk"
    mum = LocalUser.objects.get(username="mum")
    assert (os.stat(folder).st_uid, os.stat(folder).st_mode & 0o777) == (mum.uid, 0o770)

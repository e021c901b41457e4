"""Config backup in Chromium: download an archive with a passphrase typed twice, upload it back,
see what it holds, confirm; the restore waits for the next start and can be cancelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from sharing.models import SmbShare

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSPHRASE = "our family's backup phrase"


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    return settings.DATA_DIR


def test_download_then_restore_the_archive(logged_in, tmp_path: Path) -> None:
    SmbShare.objects.create(name="photos", dataset="tank/photos")
    page = logged_in
    page.get_by_role("list", name="Main").get_by_role("link", name="System").click()
    page.get_by_role("heading", name="Config backup", exact=True).wait_for()
    backup = page.get_by_test_id("backup-form")
    backup.get_by_label("Passphrase", exact=True).fill(PASSPHRASE)
    backup.get_by_label("The passphrase again").fill(PASSPHRASE + " typo")
    backup.get_by_role("button", name="Download backup").click()
    page.locator('[data-field-error="again"]').wait_for()  # nothing downloaded: they differ

    backup = page.get_by_test_id("backup-form")
    backup.get_by_label("Passphrase", exact=True).fill(PASSPHRASE)
    backup.get_by_label("The passphrase again").fill(PASSPHRASE)
    with page.expect_download() as downloading:
        backup.get_by_role("button", name="Download backup").click()
    saved = tmp_path / downloading.value.suggested_filename
    downloading.value.save_as(saved)
    assert saved.name.startswith("nasui-config-")
    assert saved.read_bytes().startswith(b"NASUI-CONFIG\n")

    page.get_by_role("link", name="Restore a config backup").click()
    restore = page.get_by_test_id("restore-form")
    restore.get_by_label("Config archive").set_input_files(str(saved))
    restore.get_by_label("Passphrase").fill("not the passphrase")
    restore.get_by_role("button", name="Check the archive").click()
    error = page.locator('[data-field-error="passphrase"]')
    error.wait_for()
    assert "Wrong passphrase" in error.inner_text()

    restore = page.get_by_test_id("restore-form")
    restore.get_by_label("Config archive").set_input_files(str(saved))
    restore.get_by_label("Passphrase").fill(PASSPHRASE)
    restore.get_by_role("button", name="Check the archive").click()
    counts = page.get_by_test_id("archive-counts")
    counts.wait_for()
    assert "SMB shares" in counts.inner_text()
    assert "tank" in counts.inner_text()
    page.get_by_test_id("restore-confirm").click()
    page.get_by_test_id("restore-waiting").wait_for()
    page.get_by_role("button", name="Cancel the restore").click()
    page.get_by_text("nothing changed").wait_for()
    assert page.get_by_test_id("restore-waiting").count() == 0

"""Long names and phone-width screens: the dataset table wraps, the page never overflows."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LONG = "a" + "-very-long-dataset-name" * 4  # ~90 characters, as a user found


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_a_long_dataset_name_keeps_the_table_on_the_screen(logged_in, tank, width, height):
    from storage.datasets import services

    services.dataset_create(parent="tank", name=LONG)
    page = logged_in
    page.set_viewport_size({"width": width, "height": height})
    page.goto(page.base + "/storage/pools/tank/")
    row = page.locator(f'tr[data-dataset="tank/{LONG}"]')
    row.wait_for()
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"
    table = page.locator("#dataset-table").bounding_box()
    card = (
        page.locator("#dataset-table").locator("xpath=ancestor::div[@class='card']").bounding_box()
    )
    assert table is not None
    assert card is not None
    assert table["width"] <= card["width"] + 1, "the table spills past its card"
    # the row's Edit link is reachable on the screen, not pushed off it
    if width < 768:
        row.get_by_role("button", name=f"Actions for tank/{LONG}").click()
    edit = row.get_by_role("link", name="Edit").bounding_box()
    assert edit is not None
    assert edit["x"] + edit["width"] <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"long-name-{width}.png"), full_page=True)


@pytest.fixture
def file_shares(db):
    """File shares, a user and a group as rows (their layout is what is tried, not smbd)."""
    from sharing.models import LocalGroup, LocalUser, NfsShare, SmbShare

    family = LocalGroup.objects.create(name="family", gid=3000)
    LocalUser.objects.create(username="grandmother", uid=3000, group=family)
    SmbShare.objects.create(name="family", dataset="tank/family-photos-and-letters",
                            comment="Photos, letters and the tax papers")  # fmt: skip
    SmbShare.objects.create(name=LONG, dataset=f"tank/{LONG}")
    NfsShare.objects.create(dataset="tank/backups-of-every-laptop", networks=["192.168.1.0/24"])


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)], ids=["phone", "laptop"])
def test_the_file_shares_page_keeps_its_rows_on_the_screen(logged_in, file_shares, width, height):
    page = logged_in
    page.set_viewport_size({"width": width, "height": height})
    page.goto(page.base + "/sharing/files/")
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"
    rows = page.locator("tr[data-share], tr[data-export], tr[data-user], tr[data-group]")
    assert rows.count() == 5
    for link in rows.get_by_role("link").all():
        box = link.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width, f"{link.inner_text()} runs off the screen"
    # A short name stays whole: one line, not broken mid-word.
    name = page.locator('tr[data-share="family"] .fw-medium')
    height_of_line = page.evaluate("parseFloat(getComputedStyle(document.body).lineHeight)")
    assert name.bounding_box()["height"] < 1.5 * height_of_line
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"file-shares-{width}.png"), full_page=True)


def test_a_job_row_fits_a_phone(logged_in):
    from nasui.models import Job

    title = "Create pool family-archive on sda, sdb, sdc"
    Job.objects.create(kind="pool.create", title=title, status=Job.Status.RUNNING, progress=40)
    page = logged_in
    page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/", "/jobs/"):
        page.goto(page.base + path)
        overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} is {overflow}px wider than the screen"
        badge = page.locator(".badge", has_text="Running").first
        box = badge.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= 390, f"the job's badge is clipped on {path}"


def test_a_running_jobs_progress_bar_has_a_length_on_the_storage_page(logged_in, sandbox):
    from nasui.models import Job

    Job.objects.create(kind="pool.create", title="Create pool tank", status=Job.Status.RUNNING,
                       progress=40)  # fmt: skip
    page = logged_in
    page.goto(page.base + "/storage/")
    bar = page.get_by_test_id("storage-jobs").locator(".progress").first
    box = bar.bounding_box()
    assert box is not None
    assert box["width"] >= 100, f"the progress bar is {box['width']:.0f}px long"

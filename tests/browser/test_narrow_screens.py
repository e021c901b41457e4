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

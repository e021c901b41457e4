"""Each role in Chromium: an administrator adds the family's users on System → Panel users; a
read-only user sees the pools without a button to change them; a sharing administrator sees
the share buttons and none for storage; a change that slips through is refused with the rule."""

from __future__ import annotations

import pytest

from tests.browser.conftest import BROWSER_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def add_user(page, name: str, role: str) -> None:
    page.goto(page.base + "/access/users/")
    page.get_by_role("link", name="Add a panel user").click()
    page.get_by_label("User name").fill(name)
    page.get_by_label("Role").select_option(role)
    page.get_by_label("Password", exact=True).fill(BROWSER_PASSWORD)
    page.get_by_label("Password again").fill(BROWSER_PASSWORD)
    page.get_by_role("button", name="Save").click()
    page.get_by_text(f"{name} saved.").wait_for()


def sign_in_as(page, name: str) -> None:
    page.get_by_test_id("logout").click()
    page.goto(page.base + "/login/")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(BROWSER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(page.base + "/")


def test_each_role_sees_only_the_buttons_it_may_use(logged_in, sandbox_tank):
    page = logged_in
    page.goto(page.base + "/storage/")
    assert page.get_by_role("link", name="Create pool").count() > 0
    add_user(page, "gran", "readonly")
    add_user(page, "dad", "sharing")
    row = page.locator('tr[data-user="gran"]')
    assert row.get_by_test_id("role").inner_text() == "Read-only"

    sign_in_as(page, "gran")
    page.goto(page.base + "/storage/")
    page.get_by_text("tank").first.wait_for()
    assert page.get_by_role("link", name="Create pool").count() == 0
    page.goto(page.base + "/sharing/files/")
    assert page.get_by_role("link", name="Add user").count() == 0
    page.goto(page.base + "/settings/")
    assert page.get_by_test_id("my-role").inner_text() == "Read-only"
    assert page.get_by_role("button", name="Create token").count() == 1  # her own account

    sign_in_as(page, "dad")
    page.goto(page.base + "/sharing/files/")
    assert page.get_by_role("link", name="Add user").count() > 0
    page.goto(page.base + "/storage/")
    assert page.get_by_role("link", name="Create pool").count() == 0
    page.goto(page.base + "/storage/pools/create/")
    assert page.locator("main form[method=post]").count() == 0

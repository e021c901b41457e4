"""The first login with the machine's password asks for the admin's own, then goes on."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from nasui import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
FIRST, OWN = "first-boot-Xq9w2", "a passphrase only I know"


def test_the_first_login_asks_for_a_password_of_ones_own(page):
    admin = User.objects.create_superuser("admin", password=FIRST)
    services.password_change_require(user=admin)
    page.goto(page.base + "/storage/")
    page.get_by_label("User name").fill("admin")
    page.get_by_label("Password").fill(FIRST)
    page.get_by_role("button", name="Log in").click()
    page.get_by_test_id("first-password").wait_for()
    assert page.get_by_role("link", name="Cancel").count() == 0
    page.get_by_label("Password you logged in with").fill(FIRST)
    page.get_by_label("New password", exact=True).fill(OWN)
    page.get_by_label("New password confirmation").fill(OWN)
    page.get_by_role("button", name="Save my password").click()
    page.get_by_text("the one on the console no longer works").wait_for()
    assert page.url == page.base + "/storage/"  # where the user was going
    admin.refresh_from_db()
    assert admin.check_password(OWN)

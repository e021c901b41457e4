"""Two-factor sign-in in Chromium, with codes from Debian's oathtool: set it up from Settings
(QR code and key, a wrong first code refused, the recovery codes shown once), then sign out
and in again with the password and the app's code."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.browser.conftest import BROWSER_PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("oathtool") is None, reason="oathtool (make dev-deps)"),
]


def oathtool(secret: str, at: str = "now") -> str:
    argv = ["oathtool", "--totp", "-b", secret, "-N", at]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()


def test_set_up_then_sign_in_with_the_apps_code(logged_in):
    page = logged_in
    page.goto(page.base + "/settings/")
    page.get_by_role("link", name="Set up").click()
    page.get_by_role("button", name="Set up two-factor sign-in").click()
    assert page.get_by_test_id("qr").locator("svg").count() == 1
    secret = page.get_by_test_id("secret").inner_text()
    page.get_by_label("Code").fill("000000")
    page.get_by_role("button", name="Turn on").click()
    page.get_by_text("That code is not right").wait_for()
    page.get_by_label("Code").fill(oathtool(secret, "now - 30 seconds"))
    page.get_by_role("button", name="Turn on").click()
    codes = page.get_by_test_id("recovery-codes").locator("li").all_inner_texts()
    assert len(codes) == 10
    page.get_by_role("link", name="I have kept them").click()
    assert page.get_by_test_id("two-factor-state").inner_text() == "On"

    page.get_by_test_id("logout").click()
    page.goto(page.base + "/login/")
    page.get_by_label("User name").fill("admin")
    page.get_by_label("Password").fill(BROWSER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(page.base + "/login/code/")
    page.get_by_label("Code").fill(oathtool(secret))
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(page.base + "/")

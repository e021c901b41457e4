"""Playwright driving Debian's Chromium against the live test server."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from storage.engine import get_engine
from storage.zfs.base import PoolLayout

CHROMIUM = os.environ.get("NASUI_CHROMIUM", "/usr/bin/chromium")
# As root, in a sandbox with no network: no sandbox, no background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for the session."""
    if not Path(CHROMIUM).exists():
        pytest.exit(f"{CHROMIUM} is missing: run `make test`, which installs chromium", 2)
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="nasui-chromium-")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser, live_server, request) -> Iterator[object]:
    """A fresh tab; a screenshot is kept under test-artifacts/ when the test fails."""
    tab = browser.new_page()
    tab.set_default_timeout(15_000)
    tab.base = live_server.url
    yield tab
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    tab.close()
    browser.clear_cookies()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Remember each phase's report on the item so fixtures can see whether the test failed."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


BROWSER_PASSWORD = "a long test passphrase"


@pytest.fixture
def logged_in(page, django_user_model):
    """A tab logged in as a fresh superuser `admin`, on the dashboard."""
    django_user_model.objects.create_superuser("admin", password=BROWSER_PASSWORD)
    page.goto(page.base + "/login/")
    page.get_by_label("User name").fill("admin")
    page.get_by_label("Password").fill(BROWSER_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(page.base + "/")
    return page


@pytest.fixture
def sandbox_tank():
    """A one-disk sandbox pool `tank`, shared with the live server."""
    assert settings.NASUI_ZFS_ENGINE == "sandbox"
    shutil.rmtree(settings.NASUI_SANDBOX_DIR, ignore_errors=True)
    get_engine.cache_clear()
    engine = get_engine()
    engine.create_pool("tank", PoolLayout("stripe", ((engine.list_disks()[0].path,),)))
    yield engine
    shutil.rmtree(settings.NASUI_SANDBOX_DIR, ignore_errors=True)
    get_engine.cache_clear()

"""Pair with another nasui from its page, by keyboard: a wrong password is said on its field and
saves nothing; the right one (and the SSH port a router forwards) makes a checked connection.

The other nasui is this same panel (the live server answers its pairing endpoint), its SSH side
a real OpenSSH server on loopback that the panel names on a port that does not answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from replication.models import SshConnection
from replication.tests.sshd import Sshd
from tests.browser.conftest import BROWSER_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def other_side(settings, tmp_path: Path) -> Iterator[Sshd]:
    server = Sshd(tmp_path)
    server.start()
    settings.NASUI_AUTHORIZED_KEYS = server.folder / "authorized_keys"
    settings.NASUI_SSH_HOST_KEYS = str(server.folder / "host_key.pub")
    settings.NASUI_SSH_PORT = 9  # what it names; the router forwards server.port to it
    yield server
    server.stop()


def test_pair_with_another_nasui_by_keyboard(logged_in, other_side: Sshd, live_server) -> None:
    page = logged_in
    page.goto(page.base + "/replication/connections/")
    page.get_by_test_id("pair").click()
    page.get_by_label("Name", exact=True).wait_for()
    assert page.evaluate("document.activeElement.name") == "name"  # the form starts there
    page.keyboard.type("far")
    page.keyboard.press("Tab")
    page.keyboard.type(live_server.url)
    page.keyboard.press("Tab")
    page.keyboard.type("admin")
    page.keyboard.press("Tab")
    page.keyboard.type("not the password")
    page.keyboard.press("Tab")  # their two-factor code: none for this administrator
    assert page.evaluate("document.activeElement.name") == "code"
    page.keyboard.press("Tab")
    page.keyboard.type(str(other_side.port))
    page.keyboard.press("Enter")
    error = page.locator('[data-field-error="password"]')
    error.wait_for()
    assert "Wrong user name or password" in error.inner_text()
    assert not SshConnection.objects.exists()
    assert (other_side.folder / "authorized_keys").read_text() == ""

    page.get_by_label("An administrator there").fill("admin")
    page.locator('input[name="password"]').fill(BROWSER_PASSWORD)
    page.get_by_role("button", name="Pair").click()
    page.get_by_role("heading", name="far").wait_for()
    assert "Paired with localhost" in page.locator("body").inner_text()
    connection = SshConnection.objects.get()
    assert connection.port == other_side.port
    assert connection.checked_at is not None
    assert connection.public_key.split()[1] in (other_side.folder / "authorized_keys").read_text()

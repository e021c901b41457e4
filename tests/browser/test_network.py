"""System -> Network in Chromium: the static fields appear when the interface is set static, an
address without its prefix is refused on its field, the change waits for its confirmation with
the link to open through the new address, and is undone from the page or kept from that link."""

from __future__ import annotations

from pathlib import Path

import pytest

from system.network import selectors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
NIC = "enp0s3"


@pytest.fixture(autouse=True)
def box(settings, tmp_path: Path, monkeypatch, eager_jobs) -> None:
    settings.DATA_DIR = tmp_path
    settings.NASUI_NETWORK = "none"  # kept and shown; this machine's network is left alone
    present = [selectors.Present(NIC, ("10.0.2.15/24",), "52:54:00:12:34:56", True, 1500)]
    monkeypatch.setattr(selectors, "interfaces_present", lambda: present)


def static_change(page) -> None:
    page.get_by_role("list", name="Main").get_by_role("link", name="System").click()
    page.get_by_role("link", name="Network", exact=True).click()
    group = page.get_by_test_id(f"network-interface-{NIC}")
    addresses = group.get_by_label("Static addresses")
    assert not addresses.is_visible()  # DHCP from the image until the interface is set static
    group.get_by_label("Addresses", exact=True).select_option("static")
    addresses.fill("10.0.2.16")
    addresses.press("Enter")
    error = page.locator(f'[data-field-error="interfaces.{NIC}.addresses"]')
    error.wait_for()
    assert "needs its prefix length" in error.inner_text()
    group = page.get_by_test_id(f"network-interface-{NIC}")
    group.get_by_label("Static addresses").fill("10.0.2.16/24")
    group.get_by_label("IPv4 gateway").fill("10.0.2.2")
    group.get_by_label("IPv4 gateway").press("Enter")
    page.get_by_test_id("network-pending").wait_for()


def test_a_static_address_waits_and_is_undone_from_the_page(logged_in) -> None:
    page = logged_in
    static_change(page)
    link = page.get_by_test_id("network-confirm-link")
    assert "://10.0.2.16/system/network/confirm/" in link.inner_text()  # through the new address
    page.get_by_role("button", name="Undo it now").click()
    page.get_by_text("The change was undone: the settings before it are back.").wait_for()
    assert "It was undone from the panel." in page.get_by_test_id("network-undone").inner_text()
    group = page.get_by_test_id(f"network-interface-{NIC}")
    assert group.get_by_label("Addresses", exact=True).input_value() == ""


def test_the_confirmation_page_keeps_the_change(logged_in, live_server) -> None:
    page = logged_in
    static_change(page)
    waiting = selectors.pending_change()
    assert waiting is not None
    page.goto(f"{live_server.url}/system/network/confirm/{waiting.token}/")
    page.get_by_role("button", name="Keep the new settings").click()
    page.get_by_text("The new network settings are kept.").wait_for()
    group = page.get_by_test_id(f"network-interface-{NIC}")
    assert group.get_by_label("Static addresses").input_value() == "10.0.2.16/24"

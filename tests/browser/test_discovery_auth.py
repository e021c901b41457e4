"""Discovery authentication is set on the iSCSI settings page; its auth group only when asked."""

from __future__ import annotations

import pytest

from sharing.iscsi import services as sharing
from tests.iscsi.iscsi_clients import discover, url

pytestmark = [pytest.mark.browser, pytest.mark.iscsi, pytest.mark.django_db(transaction=True)]
BASE = "iqn.2026-11.local.nasui"


def test_discovery_chap_chosen_on_the_page_guards_the_real_target_list(logged_in, target_service):
    sharing.settings_update(basename=BASE, port=target_service)
    portal = sharing.portal_create(addresses=["127.0.0.1"])
    sharing.target_create(name="disk", groups=[{"portal": portal}])
    sharing.auth_group_create(tag=3, user="lister", secret="disco-secret-1")
    assert f"{BASE}:disk" in discover(url("127.0.0.1", target_service))[1]
    page = logged_in
    page.goto(page.base + "/sharing/settings/")
    group = page.get_by_label("Discovery auth group")
    assert not group.is_visible()
    page.get_by_label("Discovery authentication").select_option("chap")
    assert group.is_visible()
    page.get_by_role("button", name="Save").click()
    page.get_by_text("CHAP needs an auth group").wait_for()
    page.get_by_label("Discovery auth group").select_option(label="Auth group 3 (lister)")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("iSCSI settings saved.").wait_for()
    page.goto(page.base + "/sharing/")
    assert page.get_by_test_id("discovery").inner_text() == "discovery needs CHAP"
    refused = discover(url("127.0.0.1", target_service))[0]
    assert not refused.ok
    assert "Authentication failure" in refused.output
    allowed = url("127.0.0.1", target_service, user="lister", secret="disco-secret-1")
    assert f"{BASE}:disk" in discover(allowed)[1]

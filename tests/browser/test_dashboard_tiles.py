"""The dashboard's summary tiles refresh by themselves, as the graphs do."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_tiles_refresh_without_a_reload(logged_in):
    page = logged_in
    page.goto(page.base + "/")
    tiles = page.get_by_test_id("tiles")
    tiles.wait_for()
    with page.expect_response(re.compile(r"/$"), timeout=15_000) as refreshed:
        pass
    response = refreshed.value
    assert response.request.headers.get("hx-request") == "true"
    assert response.ok
    assert page.get_by_test_id("uptime").is_visible()
    assert page.get_by_test_id("health").is_visible()
    # the graphs were not replaced by the refresh
    assert page.locator("#dashboard-graphs canvas").count() > 0

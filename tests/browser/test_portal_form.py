"""A second portal under tgt is refused at the form, saying what tgt allows and what to do."""

from __future__ import annotations

import pytest

from sharing.iscsi import services as sharing
from sharing.models import Portal

pytestmark = [pytest.mark.browser, pytest.mark.iscsi, pytest.mark.django_db(transaction=True)]


def test_a_second_portal_is_refused_at_its_addresses_with_the_way_out(logged_in, target_service):
    first = sharing.portal_create(addresses=["127.0.0.1"])
    page = logged_in
    page.goto(page.base + "/sharing/portals/add/")
    assert "keep one portal" in page.get_by_text("tgt serves every target").inner_text()
    page.get_by_label("Addresses").fill("::1")
    page.get_by_role("button", name="Save").click()
    error = page.locator('[data-field-error="addresses"]')
    error.wait_for()
    assert f"add these addresses to portal {first.pk} instead" in error.inner_text()
    assert Portal.objects.count() == 1

"""The extent form shows the zvol picker or the file path, whichever the chosen type needs."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_only_the_source_of_the_chosen_type_is_shown(logged_in, sandbox):
    page = logged_in
    page.goto(page.base + "/sharing/extents/add/")
    zvol, path = page.get_by_label("Zvol"), page.get_by_label("Path")
    assert zvol.is_visible()
    assert not path.is_visible()
    page.get_by_label("Type").select_option("file")
    assert path.is_visible()
    assert not zvol.is_visible()
    page.get_by_label("Type").select_option("zvol")
    assert zvol.is_visible()
    assert not path.is_visible()

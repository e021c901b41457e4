"""The dataset and zvol pages: refusals on the field they concern, and what "inherit" gives."""

from __future__ import annotations

import re

import pytest

from storage.datasets import selectors, services

pytestmark = pytest.mark.django_db
FILESYSTEM_PROPERTIES = ("compression", "dedup", "recordsize", "atime", "acltype", "sync")


def inherit_options(page: str) -> list[str]:
    """The labels of the "inherit" options of a form page, in order."""
    return re.findall(r'<option value="(?:inherit)?"[^>]*>(inherit[^<]*)</option>', page)


def test_a_reservation_beyond_the_pool_is_said_under_the_reservation_field(admin_client, tank):
    services.dataset_create(parent="tank", name="docs")
    form = {"compression": "inherit", "dedup": "inherit", "atime": "inherit", "reservation": "1P"}
    response = admin_client.post("/storage/datasets/tank/docs/edit/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="reservation"' in page
    assert "size:" not in page  # not said of a field this form does not have


def test_a_name_with_spaces_inside_is_refused_on_the_name_field(admin_client, tank):
    form = {"parent": "tank", "name": "my docs", "compression": "inherit", "dedup": "inherit"}
    response = admin_client.post("/storage/datasets/create/", {**form, "atime": "inherit"})
    assert response.status_code == 400
    assert 'data-field-error="name"' in response.content.decode()
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_inherit_says_the_value_and_where_it_comes_from(tank):
    services.dataset_create(parent="tank", name="docs")
    services.dataset_create(parent="tank/docs", name="sub", compression="zstd")
    words = selectors.inherited_values("tank/docs/sub", FILESYSTEM_PROPERTIES)
    # Set on sub itself: inheriting gives the parent's value, which tank sets (lz4, atime off).
    assert words["compression"] == "lz4 from tank"
    assert words["atime"] == "off from tank"
    assert words["recordsize"] == "128K, the default"
    # The pool's root has no parent: inheriting there gives ZFS's default.
    assert selectors.inherited_values("tank", ("compression",)) == {"compression": "ZFS's default"}


def test_the_edit_forms_show_what_inherit_gives(admin_client, tank):
    services.dataset_create(parent="tank", name="docs", compression="zstd")
    page = admin_client.get("/storage/datasets/tank/docs/edit/").content.decode()
    options = inherit_options(page)
    assert "inherit (lz4 from tank)" in options  # compression
    assert "inherit (128K, the default)" in options  # record size
    assert "inherit (off from tank)" in options  # atime
    services.zvol_create(parent="tank", name="vol", size="16M", sparse=True)
    zvol_page = admin_client.get("/storage/zvols/tank/vol/edit/").content.decode()
    assert inherit_options(zvol_page)[0] == "inherit (lz4 from tank)"

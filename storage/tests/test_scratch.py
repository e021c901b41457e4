"""A benchmark's scratch datasets and zvols stay out of the panel's lists and its names."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from storage.datasets import selectors, services
from storage.engine import get_engine
from storage.snapshots import services as snapshot_services
from storage.zfs.names import is_scratch

pytestmark = pytest.mark.django_db


@pytest.fixture
def scratch(tank):
    """tank/docs, and a benchmark's scratch dataset with a child and a scratch zvol beside it."""
    services.dataset_create(parent="tank", name="docs")
    engine = get_engine()
    engine.create_dataset("tank/nasui-scratch-7-lz4")
    engine.create_dataset("tank/nasui-scratch-7-lz4/inner")
    engine.create_zvol("tank/docs/nasui-scratch-8-fio", size=64 << 20, sparse=True)


def test_scratch_names_are_recognised_at_any_depth():
    assert is_scratch("tank/nasui-scratch-7-lz4")
    assert is_scratch("tank/a/nasui-scratch-7-lz4/inner")
    assert not is_scratch("nasui-scratch-pool/data")  # a pool's own name is the user's
    assert not is_scratch("tank/my-nasui-scratch-7")


def test_lists_leave_scratch_data_out(scratch):
    names = [d.name for d in selectors.dataset_list()]
    assert names == ["tank", "tank/docs"]
    assert selectors.dataset_list(volumes=True) == []
    tree = selectors.dataset_tree("tank")
    assert [row.dataset.name for row in tree.rows] == ["tank", "tank/docs"]
    assert tree.scratch == 3


def test_the_pool_page_says_what_it_does_not_show(admin_client, scratch):
    page = admin_client.get("/storage/pools/tank/").content.decode()
    assert 'data-dataset="tank/docs"' in page
    assert "nasui-scratch-" not in page
    assert "3 scratch datasets or zvols of a running benchmark are not shown" in page


def test_the_api_lists_no_scratch_data(admin_client, scratch):
    body = admin_client.get("/api/storage/datasets/").json()
    assert [d["name"] for d in body["results"]] == ["tank", "tank/docs"]
    assert admin_client.get("/api/storage/zvols/").json()["results"] == []


def test_users_cannot_take_the_scratch_prefix(admin_client, tank):
    response = admin_client.post(
        "/api/storage/datasets/",
        {"name": "tank/nasui-scratch-1-x"},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    assert "kept for the benchmark" in response.json()["fields"]["name"][0]
    with pytest.raises(ValidationError) as refused:
        services.zvol_create(parent="tank", name="nasui-scratch-2", size="64M", sparse=True)
    assert "name" in refused.value.message_dict
    assert [d.name for d in get_engine().list_datasets("tank")] == ["tank"]


def test_a_clone_cannot_be_named_as_scratch(tank):
    services.dataset_create(parent="tank", name="docs")
    snapshot_services.snapshot_create(dataset="tank/docs", name="s1")
    with pytest.raises(ValidationError) as refused:
        snapshot_services.snapshot_clone(snapshot="tank/docs@s1", target="tank/nasui-scratch-3")
    assert "target" in refused.value.message_dict

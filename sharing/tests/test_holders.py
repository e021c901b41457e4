"""Sharing tells storage who holds a zvol: refusals name the extent, in services and the API."""

from __future__ import annotations

from sharing.iscsi import services
from sharing.iscsi.selectors import extent_holders as iscsi_extent_holders
from storage.engine import get_engine
from storage.registry import Holder, holders_of


def test_an_extent_holds_its_zvol_and_the_pool_above_it(fake_target, zvol):
    services.extent_create(name="ext16k", zvol=zvol)
    assert holders_of(zvol) == [Holder("iSCSI extent", "ext16k")]
    assert holders_of("tank", include_children=True) == [Holder("iSCSI extent", "ext16k")]
    assert holders_of("tank") == []


def test_a_zvol_without_an_extent_has_no_holder(fake_target, zvol):
    assert iscsi_extent_holders(zvol, True) == []
    services.extent_create(name="ext16k", zvol=zvol)
    assert iscsi_extent_holders(zvol, False) == [Holder("iSCSI extent", "ext16k")]


def test_the_api_refuses_to_destroy_a_shared_zvol_and_names_the_extent(
    admin_client, fake_target, zvol
):
    services.extent_create(name="ext16k", zvol=zvol)
    response = admin_client.delete(f"/api/storage/zvols/{zvol}/?confirm={zvol}")
    assert response.status_code == 400
    assert "In use by iSCSI extent ext16k: remove it first." in response.content.decode()
    assert get_engine().get_dataset(zvol).is_volume

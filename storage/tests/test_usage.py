"""Storage's usage registry: storage learns who holds a dataset without importing them."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from storage import registry
from storage.datasets import services
from storage.engine import get_engine
from storage.pools import services as pool_services
from storage.registry import Holder


@pytest.fixture
def registered():
    """A checker that claims tank/vm/disk and everything under tank/smb."""
    calls: list[tuple[str, bool]] = []

    def checker(name: str, include_children: bool) -> list[Holder]:
        calls.append((name, include_children))
        held = {"tank/vm/disk": Holder("NFS export", "vmstore")}
        return [
            holder
            for held_name, holder in held.items()
            if held_name == name or (include_children and held_name.startswith(f"{name}/"))
        ]

    registry.register_holder_checker("test", checker)
    yield calls
    registry.unregister_holder_checker("test")


@pytest.mark.django_db
def test_holders_of_asks_every_registered_checker(registered):
    assert registry.holders_of("tank/vm/disk") == [Holder("NFS export", "vmstore")]
    assert ("tank/vm/disk", False) in registered


@pytest.mark.django_db
def test_holders_of_a_parent_includes_children_only_when_asked(registered):
    assert registry.holders_of("tank/vm") == []
    assert registry.holders_of("tank/vm", include_children=True) == [
        Holder("NFS export", "vmstore")
    ]


def test_message_names_each_kind_and_holder():
    message = registry.in_use_message(
        [Holder("iSCSI extent", "a"), Holder("iSCSI extent", "b"), Holder("SMB share", "media")]
    )
    assert message == "In use by iSCSI extent a, b; SMB share media: remove them first."


def test_message_for_one_holder_says_it():
    assert registry.in_use_message([Holder("iSCSI extent", "ext16k")]) == (
        "In use by iSCSI extent ext16k: remove it first."
    )


def test_the_sharing_app_registers_its_iscsi_checker_at_start_up():
    # Django ran SharingConfig.ready() when the test settings loaded the apps.
    assert "sharing.iscsi" in registry._checkers


def test_a_held_zvol_is_not_destroyed_and_the_refusal_names_the_holder(tank, registered):
    services.dataset_create(parent="tank", name="vm")
    services.zvol_create(parent="tank/vm", name="disk", size="64M", sparse=True)
    with pytest.raises(ValidationError, match="In use by NFS export vmstore: remove it first"):
        services.zvol_destroy(name="tank/vm/disk", confirm="tank/vm/disk")
    assert get_engine().get_dataset("tank/vm/disk").is_volume


def test_a_parent_of_a_held_zvol_is_not_destroyed(tank, registered):
    services.dataset_create(parent="tank", name="vm")
    services.zvol_create(parent="tank/vm", name="disk", size="64M", sparse=True)
    with pytest.raises(ValidationError, match="NFS export vmstore"):
        services.dataset_destroy(name="tank/vm", confirm="tank/vm", recursive=True)
    with pytest.raises(ValidationError, match="NFS export vmstore"):
        pool_services.pool_export(name="tank")
    assert get_engine().get_dataset("tank/vm/disk").is_volume


def test_growing_a_zvol_tells_the_resize_listeners(tank):
    grown: list[str] = []
    registry.register_resize_listener("test", grown.append)
    try:
        services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
        services.zvol_update(name="tank/vol", size="64M")  # same size: nothing grew
        assert grown == []
        services.zvol_update(name="tank/vol", size="128M")
        assert grown == ["tank/vol"]
    finally:
        registry._resize_listeners.pop("test", None)

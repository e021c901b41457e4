"""Capacity that adds up: usable space first, reservations apart from data, a tile per pool."""

from __future__ import annotations

import dataclasses

import pytest

from nasui.lib.units import format_bytes
from storage.datasets import selectors as dataset_selectors
from storage.datasets import services
from storage.pools.selectors import pool_cards, pool_detail
from storage.zfs.records import Dataset
from storage.zfs.space import PoolSpace

MIB = 1 << 20
ROOT = Dataset(
    name="tank", type="filesystem", used=300 * MIB, available=700 * MIB, referenced=0,
    logicalused=0, compressratio=1.0, compression="lz4", dedup="off", logicalreferenced=0,
    usedbydataset=0, usedbychildren=300 * MIB, usedbysnapshots=0, usedbyrefreservation=0,
    figures_read_at=0.0,
)  # fmt: skip


def test_space_keeps_unused_reservations_apart_from_data():
    thick = dataclasses.replace(ROOT, name="tank/vol", type="volume", used=100 * MIB,
                                usedbydataset=10 * MIB, usedbyrefreservation=90 * MIB)  # fmt: skip
    held = dataclasses.replace(ROOT, name="tank/home", used=50 * MIB, reservation=80 * MIB)
    space = PoolSpace.of([ROOT, thick, held])
    assert space is not None
    assert space.usable == 1000 * MIB  # used + available: parity is already gone
    assert space.reserved == 90 * MIB + 30 * MIB
    assert space.data == 300 * MIB - 120 * MIB
    assert space.percent_used == 30


def test_a_pool_without_datasets_has_no_space_figures():
    assert PoolSpace.of([]) is None


pytestmark = pytest.mark.django_db


def test_a_thick_zvol_counts_as_reserved_not_as_data(tank):
    services.zvol_create(parent="tank", name="vol", size="64M")
    vol = dataset_selectors.dataset_get("tank/vol")
    space = _space()
    assert space.reserved >= vol.usedbyrefreservation > 60 * MIB
    assert space.data < 8 * MIB  # nothing was written: the reservation is not data
    assert space.used == dataset_selectors.dataset_get("tank").used
    card = next(c for c in pool_cards() if c.pool.name == "tank")
    assert card.space == space


def test_the_pool_card_leads_with_usable_capacity(admin_client, tank):
    space = _space()
    page = admin_client.get("/storage/").content.decode()
    assert _testid(page, "usable") == format_bytes(space.usable)
    assert space.usable < tank_raw_size()  # raidz1 of three: a third is parity


def tank_raw_size() -> int:
    return next(c for c in pool_cards() if c.pool.name == "tank").pool.size


def test_the_compression_tile_does_not_count_a_reservation_as_data(admin_client, tank):
    services.zvol_create(parent="tank", name="vol", size="64M")
    space = _space()
    page = admin_client.get("/storage/pools/tank/").content.decode()
    shown = _testid(page, "compression-data")
    assert shown.endswith(f"in {format_bytes(space.data)} on disk")
    assert format_bytes(space.used) not in shown


def test_the_dashboard_has_a_tile_per_pool_with_health_and_free_space(admin_client, tank):
    page = admin_client.get("/").content.decode()
    tile = page.split('data-testid="pool-tile" data-pool="tank">')[1].split("data-testid=")[0]
    space = _space()
    assert "ONLINE" in tile
    assert f"{format_bytes(space.available)} free" in tile
    assert f"of {format_bytes(space.usable)}" in tile


def test_the_dashboard_without_pools_offers_to_create_one(admin_client, sandbox):
    page = admin_client.get("/").content.decode()
    assert "none yet" in page
    assert "/storage/pools/create/" in page


def test_the_api_gives_the_space_figures(admin_client, tank):
    body = admin_client.get("/api/storage/pools/tank/").json()
    space = _space()
    fields = ("usable", "used", "reserved", "available", "percent_used")
    assert body["space"] == {"written": space.data, **{f: getattr(space, f) for f in fields}}


def _testid(page: str, testid: str) -> str:
    return page.split(f'data-testid="{testid}">')[1].split("<")[0]


def _space() -> PoolSpace:
    space = pool_detail("tank").space
    assert space is not None
    return space

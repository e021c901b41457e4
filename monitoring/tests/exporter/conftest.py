"""Stored figures for the exporter tests: a sample, the cached dataset listing, a token."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.core import cache as django_cache
from django.test import Client

from access.users import services as users
from monitoring.exporter import services
from monitoring.models import Sample
from nasui import services as core
from storage.datasets.selectors import FIGURES_KEY

PASSWORD = "a long passphrase for tests"
POOL_VALUES = {
    "pool.tank.size": 3 * 2**30,
    "pool.tank.allocated": 2**30,
    "pool.tank.free": 2 * 2**30,
    "pool.tank.capacity": 33,
    "pool.tank.fragmentation": 12,
    "pool.tank.dedupratio": 1.5,
    "pool.tank.compressratio": 2.25,
    "pool.tank.ddt_entries": 1000,
    "pool.tank.ddt_in_core": 320000,
    "pool.back.size": 2**30,
    "pool.back.allocated": 0,
    "pool.back.free": 2**30,
}
HOST_VALUES = {
    "arc.size": 512 * 2**20,
    "arc.target": 600 * 2**20,
    "arc.hit_ratio": 97.5,
    "cpu.busy": 25.0,
    "load.1": 0.5,
    "mem.total": 8 * 2**30,
    "mem.used": 2**30,
    "mem.available": 6 * 2**30,
    "swap.total": 2**30,
    "swap.used": 0,
    "disk.sda.temperature": 38,
    "disk.nvme0n1.temperature": 45,
}


@pytest.fixture
def stored_sample(db) -> Sample:
    """The newest sample: pools tank (ONLINE) and back (DEGRADED), ARC, host and disks."""
    health = {"tank": "ONLINE", "back": "DEGRADED"}
    return Sample.objects.create(
        t=time.time() - 1, values={**POOL_VALUES, **HOST_VALUES}, info={"health": health}
    )


@pytest.fixture
def cached_datasets() -> Callable[[int], list[tuple[str, int, int, float]]]:
    """Put `n` datasets of tank in the cached listing a scrape reads."""

    def fill(n: int = 3) -> list[tuple[str, int, int, float]]:
        rows = [("tank", 2**30, 4096, 2.25)]
        rows += [(f"tank/d{i}", 1000 * (i + 1), 500 * (i + 1), 1.5) for i in range(n - 1)]
        django_cache.cache.set(FIGURES_KEY, {"t": time.time(), "datasets": rows}, 600)
        return rows

    return fill


@pytest.fixture
def exporter_on(db) -> str:
    """/metrics on, with a token; returns the token."""
    services.exporter_update(enabled=True)
    return services.exporter_token_create()[1]


@pytest.fixture
def client_of(db) -> Callable[[str], Client]:
    """A browser signed in as a new panel user of `role`."""

    def make(role: str) -> Client:
        client = Client()
        client.force_login(users.user_create(username=f"b-{role}", password=PASSWORD, role=role))
        return client

    return make


@pytest.fixture
def token_client(db) -> Callable[[str], Client]:
    """A script with an API token of a new panel user of `role`."""

    def make(role: str) -> Client:
        user = users.user_create(username=f"t-{role}", password=PASSWORD, role=role)
        key = core.api_token_create(user=user, name="t", read_only=False)[1]
        return Client(HTTP_AUTHORIZATION=f"Token {key}")

    return make

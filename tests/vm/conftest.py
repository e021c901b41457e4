"""Fixtures for the real-OpenZFS lane: runs as root inside the throw-away VM only."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from vmhelpers import SERIAL_PREFIX, DiskPool, destroy_quietly, wipe

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.disks import list_disks


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a VM test."""
    for item in items:
        item.add_marker(pytest.mark.vm)


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to run anywhere but in the VM: these tests create and destroy pools."""
    if not Path("/dev/zfs").exists() or os.environ.get("NASUI_VM_OUT") is None:
        pytest.exit("tests/vm runs only inside the ZFS VM: use scripts/zfsvm.sh test", 2)


@pytest.fixture(scope="session")
def engine() -> CliZfsEngine:
    """The same cli engine the appliance runs."""
    return CliZfsEngine(timeout=300.0)


@pytest.fixture(scope="session")
def all_disks() -> list[str]:
    """The VM's blank disks, by path, in serial order."""
    disks = [d for d in list_disks() if d.serial.startswith(SERIAL_PREFIX)]
    disks.sort(key=lambda d: d.serial)
    paths = [d.path for d in disks]
    assert len(paths) >= 6, f"the VM needs 6+ blank disks, found {paths}"
    return paths


@pytest.fixture
def disk_pool(engine: CliZfsEngine, all_disks: list[str]) -> Iterator[DiskPool]:
    """A per-test allocator of blank disks; pools made through it are destroyed afterwards."""
    pool = DiskPool(engine, all_disks)
    yield pool
    for name in pool.pools:
        destroy_quietly(name)
    wipe(pool.used)


@pytest.fixture(scope="module")
def module_pool(engine: CliZfsEngine, all_disks: list[str]) -> Iterator[Callable[..., str]]:
    """Create one pool for a whole test module (destroyed, disks wiped, at its end)."""
    made: list[tuple[str, PoolLayout]] = []

    def make(name: str, layout: PoolLayout) -> str:
        engine.create_pool(name, layout, force=True)
        made.append((name, layout))
        return name

    yield make
    for name, layout in made:
        destroy_quietly(name)
        wipe(list(layout.disks()))

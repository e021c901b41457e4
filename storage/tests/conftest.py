"""Storage tests run against a fresh sandbox engine in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from nasui.celery import app
from storage.engine import get_engine


@pytest.fixture
def sandbox(settings, tmp_path: Path) -> Iterator[object]:
    """A sandbox engine with six 4 GiB disk files, used by every storage call in the test."""
    settings.NASUI_ZFS_ENGINE = "sandbox"
    settings.NASUI_SANDBOX_DIR = tmp_path / "sandbox"
    settings.NASUI_SANDBOX_DISKS = 6
    settings.NASUI_SANDBOX_DISK_GIB = 4
    get_engine.cache_clear()
    yield get_engine()
    get_engine.cache_clear()


@pytest.fixture
def eager_jobs(monkeypatch) -> Iterator[None]:
    """Run job tasks in this process at once (the real task code, without a broker).

    The test's transaction never commits, so on_commit runs its callback immediately here;
    the worker tests and browser tests cover the real hand-over through Redis.
    """
    monkeypatch.setattr("nasui.services.transaction.on_commit", lambda callback: callback())
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def tank(sandbox, eager_jobs, admin_user):
    """A raidz1 pool named tank on sda, sdb, sdc."""
    from storage import services

    services.pool_create(name="tank", layout="raidz1", disks=["sda", "sdb", "sdc"], user=admin_user)
    return sandbox

"""Fixtures shared by the storage tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.datasets import services
from storage.engine import get_engine


@pytest.fixture
def home(tank) -> Path:
    """tank/home with a file in it (notes.txt: "v1")."""
    services.dataset_create(parent="tank", name="home")
    root = Path(get_engine().get_dataset("tank/home").mountpoint or "")
    (root / "notes.txt").write_text("v1")
    return root

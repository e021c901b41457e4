"""Fast-lane helpers: fixtures are real OpenZFS output captured in the VM (tests/vm/capture.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixture_text() -> Callable[[str], str]:
    """Read a captured fixture file by name."""

    def read(name: str) -> str:
        return (FIXTURES / name).read_text()

    return read


@pytest.fixture(scope="session")
def fixture_index() -> dict[str, Any]:
    """The argv and exit status of every captured command."""
    index: dict[str, Any] = json.loads((FIXTURES / "index.json").read_text())
    return index

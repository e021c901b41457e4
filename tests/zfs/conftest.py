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


# What `zfs list -p` prints in ENCRYPTION_COLUMNS for a dataset that is not encrypted (as the
# VM lane's capture of an encrypted pool shows it: zfs_list_crypt.txt); zfs_list_tank.txt was
# captured before those columns were listed.
UNENCRYPTED = ("off", "-", "-", "none", "none")


@pytest.fixture
def zfs_list_tank(fixture_text: Callable[[str], str]) -> str:
    """The captured `zfs list` of tank, with the columns the engine lists today."""
    rows = fixture_text("zfs_list_tank.txt").splitlines()
    return "".join("\t".join((row, *UNENCRYPTED)) + "\n" for row in rows)

"""Fixtures the appliance tests share: the booted VM and what one step hands to the next."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from appliance.testlib.config import STICK_BYTES, ResultDict
from appliance.testlib.vm import VM, booted


@pytest.fixture(scope="module")
def vm() -> Iterator[VM]:
    """The booted appliance (one per module; the reboot test restarts it in place)."""
    with booted(stick_bytes=STICK_BYTES) as machine:
        yield machine


@pytest.fixture(scope="module")
def state() -> ResultDict:
    """What one step hands to the next (admin password, token, pool, target)."""
    return {}

"""Fixtures the appliance tests share: the booted VM and what one step hands to the next."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from appliance.testlib import ntp
from appliance.testlib.config import FIRMWARE, STICK_BYTES, ResultDict
from appliance.testlib.vm import VM, booted


@pytest.fixture(scope="module")
def vm() -> Iterator[VM]:
    """The booted appliance (one per module; the reboot test restarts it in place)."""
    with booted(stick_bytes=STICK_BYTES) as machine:
        yield machine


@pytest.fixture(scope="module")
def ntp_server() -> Iterator[None]:
    """The host's clock over NTP at slirp's 10.0.2.2 (see appliance/testlib/ntp.py)."""
    with ntp.serving():
        yield


@pytest.fixture(scope="module")
def state() -> ResultDict:
    """What one step hands to the next (admin password, token, pool, target)."""
    return {}


@pytest.fixture(scope="module")
def other() -> Iterator[VM]:
    """A second appliance, a fresh copy of the image booted with the other firmware: the
    backup box the first one replicates to (its own disks, ports and console). Launched when a
    test first asks for it, so that its boot overlaps that test's wait; wait_healthy() before
    using it. Up beside the first to the end, paused while the first boots again."""
    with booted("uefi" if FIRMWARE == "bios" else "bios", wait=False) as machine:
        yield machine


@pytest.fixture(scope="module")
def other_state() -> ResultDict:
    """The backup box's admin password and token."""
    return {}

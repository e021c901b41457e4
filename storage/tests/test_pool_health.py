"""A pool's health in the panel's words: what to do, with its own buttons, not zpool commands."""

from __future__ import annotations

import pytest

from storage.engine import get_engine
from storage.pools import selectors

pytestmark = pytest.mark.django_db
OFFLINE = "Online the device using 'zpool online' or replace the device with 'zpool replace'."
# OpenZFS's own text for a removed disk, its missing quote included.
REMOVED = "Online the device using zpool online' or replace the device with\n\t'zpool replace'."


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (OFFLINE, "Bring the disk back online, or replace it, from its Manage disk page"),
        (REMOVED, "Bring the disk back online, or replace it, from its Manage disk page"),
        ("Replace the device using 'zpool replace'.", "Replace the disk from its Manage disk"),
        ("Attach the missing device and online it using 'zpool online'.", "Reconnect the"),
        ("Wait for the resilver to complete.", "wait for it to finish"),
        (
            "Determine if the device needs to be replaced, and clear the errors using "
            "'zpool clear' or replace the device with 'zpool replace'.",
            "Run a SMART test on the Disks page",
        ),
    ],
)
def test_known_zpool_actions_point_to_the_panels_buttons(action, words):
    found = selectors.panel_action(action)
    assert found is not None
    assert words in found.text
    assert "zpool" not in found.text
    assert found.zfs_text == " ".join(action.split())  # ZFS's words kept for a tooltip


def test_an_unknown_action_is_said_as_zfss_and_none_is_none():
    found = selectors.panel_action("Do something new.")
    assert found is not None
    assert found.text == "ZFS says: Do something new."
    assert selectors.panel_action("") is None


def test_a_degraded_pools_detail_carries_the_panel_worded_action(tank):
    assert selectors.pool_detail("tank").action is None
    get_engine().offline_disk("tank", "sdb")
    detail = selectors.pool_detail("tank")
    assert detail.status.action == OFFLINE
    assert detail.action is not None
    assert detail.action.text.startswith("Bring the disk back online, or replace it")
    assert detail.action.zfs_text == OFFLINE

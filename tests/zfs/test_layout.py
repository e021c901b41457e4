"""What a new pool's layout gives: usable space per layout, and the names the panel shows."""

from __future__ import annotations

import pytest

from storage.zfs.layout import LAYOUTS, display_name, estimate_capacity

GIB = 1024**3


@pytest.mark.parametrize(
    ("vdev_type", "groups", "usable", "words"),
    [
        (
            "stripe",
            [[4 * GIB], [2 * GIB]],
            6 * GIB,
            "no redundancy: losing one disk loses the pool",
        ),
        ("mirror", [[4 * GIB, 4 * GIB]], 4 * GIB, "one disk's worth goes to copies"),
        ("mirror", [[4 * GIB] * 2, [2 * GIB] * 2], 6 * GIB, "two disks' worth go to copies"),
        ("raidz1", [[4 * GIB] * 3], 8 * GIB, "one disk's worth goes to parity"),
        ("raidz2", [[4 * GIB] * 6], 16 * GIB, "two disks' worth go to parity"),
        ("raidz3", [[4 * GIB] * 5, [4 * GIB] * 5], 16 * GIB, "six disks' worth go to parity"),
    ],
)
def test_usable_space_per_layout(vdev_type, groups, usable, words):
    found = estimate_capacity(vdev_type, groups)
    assert found.usable == usable
    assert found.raw == sum(map(sum, groups))
    assert found.lost_words().startswith(words)
    assert not found.uneven


def test_a_vdev_counts_its_smallest_disk():
    mirror = estimate_capacity("mirror", [[4 * GIB, 2 * GIB]])
    raidz = estimate_capacity("raidz1", [[4 * GIB, 4 * GIB, 1 * GIB]])
    assert (mirror.usable, raidz.usable) == (2 * GIB, 2 * GIB)
    assert mirror.uneven
    assert raidz.uneven
    assert not estimate_capacity("stripe", [[4 * GIB], [1 * GIB]]).uneven  # each disk whole


def test_every_layout_has_one_display_name():
    assert display_name("raidz1") == "RAID-Z1"
    assert display_name("raid10") == "RAID10"
    assert [display_name(key) for key in LAYOUTS] == [name for name, _ in LAYOUTS.values()]

"""Typed errors, classified from stderr captured from real OpenZFS failures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from storage.zfs import errors
from storage.zfs.errors import classify

CAPTURED = {
    "err_pool_exists": errors.PoolExists,
    "err_mountpoint_not_empty": errors.MountpointNotEmpty,
    "err_device_in_use": errors.DeviceInUse,
    "err_pool_not_found": errors.PoolNotFound,
    "err_dataset_exists": errors.DatasetExists,
    "err_dataset_not_found": errors.DatasetNotFound,
    "err_invalid_property": errors.InvalidProperty,
    "err_no_space": errors.NoSpace,
    "err_has_children": errors.HasChildren,
    "err_dataset_busy": errors.DatasetBusy,
    "err_pool_busy": errors.PoolBusy,
    "err_import_not_found": errors.PoolNotFound,
}


@pytest.mark.parametrize(("name", "expected"), list(CAPTURED.items()))
def test_it_classifies_captured_stderr(
    fixture_text: Callable[[str], str],
    fixture_index: dict[str, Any],
    name: str,
    expected: type[errors.ZfsError],
) -> None:
    entry = fixture_index[name]
    stderr = fixture_text(f"{name}.stderr")
    error = classify(entry["argv"], entry["returncode"], stderr)

    assert type(error) is expected
    assert error.argv == tuple(entry["argv"])
    assert error.returncode == entry["returncode"] != 0
    assert error.stderr == stderr


@pytest.mark.parametrize(
    ("stderr", "expected"),
    [
        ("The ZFS modules are not loaded.\nTry running '/sbin/modprobe zfs' as root to load them.",
         errors.ZfsUnavailable),
        ("cannot create 'tank/v': volume size must be a multiple of volume block size",
         errors.InvalidProperty),
        ("invalid vdev specification\nuse '-f' to override the following errors:\n"
         "mismatched replication level: both raidz and mirror vdevs are present",
         errors.ReplicationMismatch),
        ("invalid vdev specification\nraidz requires at least 2 devices", errors.InvalidLayout),
        ("cannot open '/dev/sdz': No such device or address", errors.DeviceNotFound),
        ("cannot unmount '/tank/fs': pool or dataset is busy", errors.DatasetBusy),
        ("/dev/vdb1 is part of active pool 'tank'", errors.DeviceInUse),
        ("cannot destroy 'tank/fs': filesystem has dependent clones", errors.HasClones),
        ("something nobody expected", errors.ZfsError),
    ],
)  # fmt: skip
def test_it_classifies_other_known_messages(stderr: str, expected: type[errors.ZfsError]) -> None:
    assert type(classify(["zfs", "x"], 1, stderr)) is expected


def test_its_text_names_the_command_and_its_stderr(fixture_text: Callable[[str], str]) -> None:
    stderr = fixture_text("err_has_children.stderr")
    error = classify(["zfs", "destroy", "tank/parent"], 1, stderr)
    text = str(error)

    assert text.startswith("cannot destroy 'tank/parent': filesystem has children")
    assert "command: zfs destroy tank/parent" in text
    assert "exit status: 1" in text
    assert "tank/parent/child" in text  # the rest of stderr is kept


def test_every_error_is_a_zfs_error() -> None:
    for cls in set(CAPTURED.values()) | {errors.VolumeShrink, errors.InvalidLayout}:
        assert issubclass(cls, errors.ZfsError)

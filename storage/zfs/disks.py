"""Block devices for the "Disks" page, from `lsblk -J -b`."""

from __future__ import annotations

from storage.zfs.errors import classify
from storage.zfs.parse import parse_lsblk
from storage.zfs.runner import Runner, subprocess_runner
from storage.zfs.stats import BlockDevice

LSBLK_COLUMNS = "NAME,PATH,SIZE,TYPE,MODEL,SERIAL,ROTA,FSTYPE,MOUNTPOINT"


def lsblk_argv() -> list[str]:
    """The lsblk command line: JSON, sizes in bytes, whole tree."""
    return ["lsblk", "-J", "-b", "-o", LSBLK_COLUMNS]


def list_block_devices(
    runner: Runner = subprocess_runner, timeout: float = 30.0
) -> list[BlockDevice]:
    """Every block device with its partitions as children."""
    result = runner(lsblk_argv(), timeout=timeout)
    if result.returncode != 0:
        raise classify(result.argv, result.returncode, result.stderr)
    return parse_lsblk(result.stdout)


def list_disks(runner: Runner = subprocess_runner, timeout: float = 30.0) -> list[BlockDevice]:
    """Whole disks only (no partitions, loops, ROMs or zvols), for pool creation."""
    return [
        dev
        for dev in list_block_devices(runner, timeout)
        if dev.type == "disk" and not dev.name.startswith("zd") and dev.size > 0
    ]

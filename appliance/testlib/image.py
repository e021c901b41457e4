"""The image on disk: the appliance's build and upgrade scripts, and offline reads of a stick."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

from appliance.testlib.config import REPO


def run_script(
    argv: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """One of the appliance's scripts, from the checkout (bounded)."""
    return subprocess.run(
        argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def gpt_partition(disk: Path, number: int) -> tuple[int, int, int]:
    """(first sector, sectors, the GPT's last usable sector) of one partition of a disk image."""
    with open(disk, "rb") as f:
        f.seek(512)
        header = f.read(92)
        assert header[:8] == b"EFI PART", "no GPT"
        (last_usable,) = struct.unpack_from("<Q", header, 48)
        entries_lba, _, entry_size = struct.unpack_from("<QII", header, 72)
        f.seek(entries_lba * 512 + (number - 1) * entry_size)
        first, last = struct.unpack_from("<QQ", f.read(entry_size), 32)
    return first, last - first + 1, last_usable


def ext4_bytes(disk: Path, offset: int) -> int:
    """The size an ext4 file system at `offset` of a disk image says it has (its superblock)."""
    with open(disk, "rb") as f:
        f.seek(offset + 1024)
        superblock = f.read(1024)
    assert struct.unpack_from("<H", superblock, 56)[0] == 0xEF53, "no ext4 superblock"
    (blocks_lo,) = struct.unpack_from("<I", superblock, 4)
    (blocks_hi,) = struct.unpack_from("<I", superblock, 0x150)  # zero without the 64bit feature
    return int((blocks_hi << 32) | blocks_lo) * (1024 << superblock[24])

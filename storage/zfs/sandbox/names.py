"""Name and size checks shared by the sandbox modules (the same rules the cli engine applies)."""

from __future__ import annotations

import re

from storage.zfs.errors import InvalidProperty

# The character sets OpenZFS accepts; a leading letter keeps names from looking like options.
_POOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]{0,254}")
_RESERVED_POOL = re.compile(r"(mirror|raidz\d?|draid\d?|spare|log|cache|special|dedup|c\d).*")
_DATASET_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*(/[A-Za-z0-9_.:-]+)*")
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGTPE]?)(i?B?)", re.IGNORECASE)
_UNITS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}


def check_pool_name(name: str) -> None:
    """Raise InvalidProperty unless `name` is a valid pool name."""
    if not _POOL_NAME.fullmatch(name) or _RESERVED_POOL.fullmatch(name):
        raise InvalidProperty(f"invalid pool name {name!r}")


def check_dataset_name(name: str) -> None:
    """Raise InvalidProperty unless `name` is a valid dataset name (pool/child/...)."""
    if len(name) > 255 or not _DATASET_NAME.fullmatch(name):
        raise InvalidProperty(f"invalid dataset name {name!r}")
    # "." and ".." would also walk out of the sandbox's directories.
    if any(part in (".", "..") for part in name.split("/")):
        raise InvalidProperty(f"invalid dataset name {name!r}: '.' and '..' are not allowed")


def split_name(name: str) -> tuple[str, str]:
    """'tank/a/b' -> ('tank', 'a/b'); 'tank' -> ('tank', '')."""
    pool, _, rel = name.partition("/")
    return pool, rel


def parse_size(text: str, prop: str) -> int:
    """'10G', '128K', '4096' -> bytes (powers of 1024, as zfs reads them)."""
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise InvalidProperty(f"bad numeric value for {prop}: {text!r} (use bytes or 128K, 10G...)")
    number, unit, _ = match.groups()
    value = float(number) * 1024 ** _UNITS[unit.upper()]
    if value != int(value):
        raise InvalidProperty(f"{prop} must be a whole number of bytes: {text!r}")
    return int(value)


def is_power_of_two(value: int) -> bool:
    """True for 1, 2, 4, 8..."""
    return value > 0 and value & (value - 1) == 0

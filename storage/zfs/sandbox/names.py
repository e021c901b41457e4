"""Name splitting and size parsing shared by the sandbox modules (name rules: storage.zfs.names)."""

from __future__ import annotations

import re

from storage.zfs.errors import InvalidProperty

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGTPE]?)(i?B?)", re.IGNORECASE)
_UNITS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}


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

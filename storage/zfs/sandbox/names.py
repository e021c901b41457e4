"""Name splitting and size parsing shared by the sandbox modules (name rules: storage.zfs.names)."""

from __future__ import annotations

from nasui.lib import units
from storage.zfs.errors import InvalidProperty


def split_name(name: str) -> tuple[str, str]:
    """'tank/a/b' -> ('tank', 'a/b'); 'tank' -> ('tank', '')."""
    pool, _, rel = name.partition("/")
    return pool, rel


def parse_size(text: str, prop: str) -> int:
    """'10G', '128K', '4096' -> bytes (powers of 1024, as zfs reads them)."""
    try:
        return units.parse_size(text)
    except units.NotWholeBytes as exc:
        raise InvalidProperty(f"{prop} must be a whole number of bytes: {text!r}") from exc
    except units.NotASize as exc:
        raise InvalidProperty(
            f"bad numeric value for {prop}: {text!r} (use bytes or 128K, 10G...)"
        ) from exc


def is_power_of_two(value: int) -> bool:
    """True for 1, 2, 4, 8..."""
    return value > 0 and value & (value - 1) == 0

"""Byte counts as text, in binary (1024-based) units as ZFS counts them; no Django here.

Two spellings on purpose: `format_bytes` rounds for reading ("1.5 KiB"), `format_size` is exact
and short as ZFS property values are ("128K"), so a form can show it and parse it back unchanged.
"""

from __future__ import annotations

KIB = 1024
# Powers of 1024 in order: the short letter ZFS uses and the unit name people read.
PREFIXES = ("", "K", "M", "G", "T", "P")
READABLE = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def format_bytes(value: float | None) -> str:
    """1536 -> '1.5 KiB', 512 -> '512 B', None -> '—' (one decimal above bytes)."""
    if value is None:
        return "—"
    size = float(value)
    for unit in READABLE:
        if abs(size) < KIB or unit == READABLE[-1]:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= KIB
    raise AssertionError("unreachable")


def format_size(value: int) -> str:
    """4096 -> '4K', 131072 -> '128K', 1000 -> '1000': the largest unit that divides exactly."""
    for power in range(len(PREFIXES) - 1, 0, -1):
        unit = KIB**power
        if value >= unit and value % unit == 0:
            return f"{value // unit}{PREFIXES[power]}"
    return str(value)

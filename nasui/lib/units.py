"""Byte counts as text, in binary (1024-based) units as ZFS counts them; no Django here.

Two spellings on purpose: `format_bytes` rounds for reading ("1.5 KiB"), `format_size` is exact
and short as ZFS property values are ("128K"), so a form can show it and parse it back unchanged.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_EVEN, Decimal

KIB = 1024
# Powers of 1024 in order: the short letter ZFS uses and the unit name people read.
PREFIXES = ("", "K", "M", "G", "T", "P")
READABLE = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
# What a size may look like, typed or printed by ZFS: "4096", "1.5 TiB", "128K", "648B", "13.6M".
SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGTPEZ]?)(?:i?B)?\s*", re.IGNORECASE)
POWERS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6, "Z": 7}


class NotASize(ValueError):
    """The text is not a number with an optional binary unit."""


class NotWholeBytes(ValueError):
    """The size comes to a fraction of a byte ("1.3K"), which ZFS would not take."""


def parse_size(text: str, *, exact: bool = True) -> int:
    """'10G', '1.5 TiB', '512K', '648B', '4096' -> bytes, in powers of 1024 as ZFS counts.

    `exact` refuses a size that is not a whole number of bytes (what a user types must mean
    what ZFS will store); ZFS's own rounded figures ("13.6M") pass `exact=False` and round.
    """
    match = SIZE.fullmatch(text)
    if not match:
        raise NotASize(f"not a size: {text!r}")
    value = Decimal(match.group(1)) * KIB ** POWERS[match.group(2).upper()]
    whole = value.to_integral_value(rounding=ROUND_HALF_EVEN)
    if exact and value != whole:
        raise NotWholeBytes(f"not a whole number of bytes: {text!r}")
    return int(whole)


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

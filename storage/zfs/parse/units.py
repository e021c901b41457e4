"""Numbers as OpenZFS prints them: exact (-p) or "nice" (1.5K, 13.6M, 648B)."""

from __future__ import annotations

from nasui.lib import units


def parse_size(text: str) -> int:
    """'13.6M' -> 14260634, '648B' -> 648, '512' -> 512, '-' or 'none' -> 0 (1024-based)."""
    value = text.strip()
    if value in ("", "-", "none"):
        return 0
    return units.parse_size(value, exact=False)  # ZFS's "nice" figures are rounded


def parse_int_or_none(text: str) -> int | None:
    """Exact integer property; '-', 'none' and '0' for quotas mean "not set" -> None."""
    value = text.strip()
    if value in ("-", "none", ""):
        return None
    return int(value) if value.isdigit() else parse_size(value)


def parse_ratio(text: str) -> float:
    """'1.25x' or '1.25' -> 1.25; '-' -> 1.0."""
    value = text.strip().removesuffix("x")
    return float(value) if value not in ("", "-") else 1.0


def parse_percent(text: str) -> int | None:
    """'12%' or '12' -> 12; '-' -> None."""
    value = text.strip().removesuffix("%")
    return int(value) if value.isdigit() else None


def parse_count(text: str) -> int:
    """An error or block count, exact ('12') or nice ('1.2K')."""
    value = text.strip()
    return int(value) if value.isdigit() else parse_size(value)


def parse_bool(text: str) -> bool | None:
    """'on' -> True, 'off' -> False, '-' -> None."""
    value = text.strip()
    if value in ("on", "yes"):
        return True
    if value in ("off", "no"):
        return False
    return None

"""Template filters for sizes and durations."""

from __future__ import annotations

from django import template

register = template.Library()

UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


@register.filter(name="bytes")
def format_bytes(value: int | float | None) -> str:
    """1536 -> '1.5 KiB' (binary units, as ZFS prints them)."""
    if value is None:
        return "—"
    size = float(value)
    for unit in UNITS:
        if abs(size) < 1024 or unit == UNITS[-1]:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


@register.filter
def duration(seconds: int | float | None) -> str:
    """90061 -> '1 d 1 h' ; 125 -> '2 min'."""
    if seconds is None:
        return "—"
    total = int(seconds)
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"


@register.filter
def ratio(value: float | None) -> str:
    """1.234 -> '1.23x', as ZFS prints compress and dedup ratios."""
    if value is None:
        return "—"
    return f"{float(value):.2f}x"


@register.filter
def percent(value: float | None) -> str:
    """0.153 -> '15.3%'."""
    if value is None:
        return "—"
    return f"{100 * float(value):.1f}%"

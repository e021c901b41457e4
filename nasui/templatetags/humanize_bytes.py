"""Template filters for sizes and durations."""

from __future__ import annotations

from django import template

from nasui.lib.units import format_bytes

register = template.Library()
# 1536 -> '1.5 KiB': the one byte formatter, shared with code that has no templates.
register.filter("bytes", format_bytes)


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

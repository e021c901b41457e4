"""The dashboard's UPS tile: `{% load ups_tile %}{% ups_tile %}` (nothing when no UPS is set)."""

from __future__ import annotations

from typing import Any

from django import template

from system.ups import selectors

register = template.Library()


@register.inclusion_tag("system/_ups_tile.html")
def ups_tile() -> dict[str, Any]:
    """The UPS's status now, read with a short wait."""
    return {"reading": selectors.tile_reading()}

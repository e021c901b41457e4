"""Counters turned into rates: deltas between two readings, per second, and percentages."""

from __future__ import annotations

from collections.abc import Mapping

from monitoring.metrics.engine.arc import hit_ratio
from monitoring.metrics.engine.base import Metrics
from monitoring.metrics.engine.cpu import cpu_percent


def deltas(previous: Mapping[str, int], current: Mapping[str, int]) -> dict[str, int]:
    """Growth of each counter present in both readings; a counter that went down was reset."""
    return {
        key: value - previous[key]
        for key, value in current.items()
        if key in previous and value >= previous[key]
    }


def per_second(growth: Mapping[str, int], seconds: float) -> Metrics:
    """Counter growth -> rate per second (CPU ticks excluded: they become percentages)."""
    if seconds <= 0:
        return {}
    return {key: value / seconds for key, value in growth.items() if not key.startswith("cpu")}


def rates(
    previous: Mapping[str, int] | None, current: Mapping[str, int], seconds: float
) -> Metrics:
    """Every rate-derived metric between two readings taken `seconds` apart."""
    if not previous or seconds <= 0:
        return {}
    growth = deltas(previous, current)
    return {**per_second(growth, seconds), **cpu_percent(growth), **hit_ratio(growth)}

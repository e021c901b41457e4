"""Rollup arithmetic (pure): min/avg/max per metric per time bucket, and merging rollups."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

# One summary per metric: [min, avg, max, number of samples behind it].
Summary = list[float]
MINUTE = 60
QUARTER = 900
HOURS = 3 * 3600
RAW_KEEP = 3600
MINUTE_KEEP = 7 * 86400
QUARTER_KEEP = 365 * 86400
HOURS_KEEP = 365 * 86400


def bucket(t: float, width: int) -> int:
    """The start of the `width`-second bucket holding time t."""
    return int(t // width) * width


def summarize(samples: Iterable[Mapping[str, float]]) -> dict[str, Summary]:
    """Raw samples -> {metric: [min, avg, max, n]}."""
    acc: dict[str, Summary] = {}
    for values in samples:
        for name, value in values.items():
            if value is None:
                continue
            s = acc.get(name)
            if s is None:
                acc[name] = [value, value, value, 1.0]
            else:
                s[0], s[1], s[2], s[3] = min(s[0], value), s[1] + value, max(s[2], value), s[3] + 1
    for s in acc.values():
        s[1] /= s[3]
    return acc


def merge(summaries: Iterable[Mapping[str, Sequence[float]]]) -> dict[str, Summary]:
    """Finer rollups -> one coarser rollup; averages weighted by their sample counts."""
    acc: dict[str, Summary] = {}
    for summary in summaries:
        for name, (low, avg, high, n) in summary.items():
            s = acc.get(name)
            if s is None:
                acc[name] = [low, avg * n, high, n]
            else:
                s[0], s[1], s[2], s[3] = min(s[0], low), s[1] + avg * n, max(s[2], high), s[3] + n
    for s in acc.values():
        s[1] /= s[3]
    return acc


def group_by_bucket(
    rows: Iterable[tuple[float, Mapping[str, object]]], width: int
) -> dict[int, list[Mapping[str, object]]]:
    """(t, values) rows -> {bucket start: [values...]}, in time order."""
    groups: dict[int, list[Mapping[str, object]]] = defaultdict(list)
    for t, values in rows:
        groups[bucket(t, width)].append(values)
    return dict(groups)


def downsample(
    points: Sequence[tuple[float, float | None]], max_points: int
) -> list[tuple[float, float | None]]:
    """At most `max_points` points: each group of neighbours becomes its first time and mean."""
    if len(points) <= max_points or max_points < 1:
        return list(points)
    size = -(-len(points) // max_points)
    out: list[tuple[float, float | None]] = []
    for start in range(0, len(points), size):
        chunk = points[start : start + size]
        values = [v for _, v in chunk if v is not None]
        out.append((chunk[0][0], sum(values) / len(values) if values else None))
    return out

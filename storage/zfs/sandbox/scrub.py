"""A simulated scan (scrub or resilver): it takes time in proportion to the allocated bytes."""

from __future__ import annotations

import time
from typing import Any

from storage.zfs.base import ScrubStatus

MIB = 1024 * 1024
SCRUB_RATE = 256 * MIB  # bytes per second, a modest SSD's scrub speed
SCRUB_MIN_SECONDS = 2.0  # even an empty pool's scrub is seen scanning for a moment
SCRUB_MAX_SECONDS = 60.0


def start(
    total: int, now: float, rate: float = SCRUB_RATE, function: str = "scrub"
) -> dict[str, Any]:
    """A scan record (scrub, or resilver) starting now over `total` allocated bytes."""
    duration = min(SCRUB_MAX_SECONDS, SCRUB_MIN_SECONDS + total / rate)
    record = {"state": "scanning", "start": now, "duration": duration, "total": total}
    return {**record, "function": function} if function != "scrub" else record


def settle(record: dict[str, Any], now: float) -> dict[str, Any]:
    """The record with a scan that has run its course marked finished."""
    if record.get("state") == "scanning" and now >= record["start"] + record["duration"]:
        return {**record, "state": "finished", "end": record["start"] + record["duration"]}
    return record


def nice(size: float) -> str:
    """1536 -> '1.50K', as zpool status prints sizes."""
    for unit in ("", "K", "M", "G", "T"):
        if size < 1024 or unit == "T":
            return f"{size:.0f}B" if not unit else f"{size:.2f}{unit}"
        size /= 1024
    return f"{size}"


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def _date(at: float) -> str:
    return time.strftime("%a %b %d %H:%M:%S %Y", time.localtime(at))


def status(record: dict[str, Any] | None, now: float) -> ScrubStatus:
    """ScrubStatus of a scrub record, with `zpool status`-like text."""
    if not record:
        return ScrubStatus(state="none", text="none requested")
    record = settle(record, now)
    total = int(record["total"])
    state = record["state"]
    function = record.get("function", "scrub")
    if state == "finished":
        took = _clock(record["duration"])
        text = f"scrub repaired 0B in {took} with 0 errors on {_date(record['end'])}"
        if function == "resilver":
            text = f"resilvered {nice(total)} in {took} with 0 errors on {_date(record['end'])}"
            return ScrubStatus("finished", function, 100.0, 0, total, total, total, total, text)
        return ScrubStatus("finished", "scrub", 100.0, 0, 0, total, total, total, text)
    elapsed = min(now, record.get("stopped", now)) - record["start"]
    fraction = min(1.0, max(0.0, elapsed / record["duration"]))
    done = int(total * fraction)
    if state == "canceled":
        text = f"scrub canceled on {_date(record['stopped'])}"
        return ScrubStatus(
            "canceled", "scrub", round(fraction * 100, 2), 0, 0, done, done, total, text
        )
    rate = nice(done / elapsed) if elapsed > 0 else "0B"
    left = _clock(record["duration"] - elapsed)
    fixed = f"{nice(done)} resilvered" if function == "resilver" else "0B repaired"
    text = (
        f"{function} in progress since {_date(record['start'])} "
        f"{nice(done)} scanned at {rate}/s, {nice(done)} issued at {rate}/s, {nice(total)} total "
        f"{fixed}, {fraction * 100:.2f}% done, {left} to go"
    )
    repaired = done if function == "resilver" else 0
    percent = round(fraction * 100, 2)
    return ScrubStatus("scanning", function, percent, 0, repaired, done, done, total, text)

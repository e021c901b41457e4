"""When the box shuts down on UPS power: after N seconds on battery, or at low battery.

Pure functions over a status and the time the UPS went on battery, kept by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

from system.ups.engine.status import UpsStatus


@dataclass(frozen=True)
class Decision:
    """Since when the UPS has been on battery (None: on line), and why to shut down (or '')."""

    on_battery_since: float | None
    reason: str = ""


def decide(
    status: UpsStatus, *, since: float | None, now: float, policy: str, seconds: int
) -> Decision:
    """What the watcher does with a fresh status; a UPS in forced shutdown (FSD, set by a
    primary upsmon elsewhere) or at low battery always shuts down."""
    if not status.on_battery and "FSD" not in status.flags:
        return Decision(None)
    started = since if since is not None else now
    if status.low_battery:
        return Decision(started, "the UPS battery is low")
    if "FSD" in status.flags:
        return Decision(started, "the UPS is in forced shutdown (FSD)")
    if policy == "battery_seconds" and now - started >= seconds:
        return Decision(started, f"on battery for {int(now - started)} s (limit {seconds} s)")
    return Decision(started)

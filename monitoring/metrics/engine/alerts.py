"""Alerts from the newest figures (pure): pool health and fullness, swap, and the dedup trap."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from nasui.lib.units import format_bytes

FULL_PERCENT = 80.0  # warning above this
CRITICAL_PERCENT = 90.0  # danger above this: ZFS performance falls off sharply past 90%
DDT_HORIZON = 24 * 3600  # warn when the DDT would pass its share of the ARC within a day
GIB = 1024**3


@dataclass(frozen=True)
class Alert:
    """One problem to show, with a plain explanation of what it means and what to do."""

    level: str  # danger or warning
    kind: str  # pool_health, pool_full, swap, ddt
    subject: str
    title: str
    text: str

    def as_dict(self) -> dict[str, str]:
        """For JSON and templates."""
        return asdict(self)


def _full_alert(pool: str, capacity: float) -> Alert:
    """Over 80% full is a warning, over 90% is danger."""
    if capacity > CRITICAL_PERCENT:
        return Alert(
            "danger",
            "pool_full",
            pool,
            f"Pool {pool} is {capacity:.0f}% full",
            "Past 90% ZFS spends much of its time finding free space, writes slow down sharply, "
            "and a full pool cannot even delete. Free space now: delete data or snapshots, "
            "or add disks.",
        )
    return Alert(
        "warning",
        "pool_full",
        pool,
        f"Pool {pool} is {capacity:.0f}% full",
        "ZFS slows down as a pool fills up and can run out of room for its own "
        "bookkeeping. Delete data or snapshots, or add disks, before it reaches 90%.",
    )


def pool_alerts(values: Mapping[str, float], health: Mapping[str, str]) -> list[Alert]:
    """A pool not ONLINE, or over 80% (warning) or 90% (danger) full."""
    found = []
    for pool, state in sorted(health.items()):
        if state != "ONLINE":
            found.append(
                Alert(
                    "danger",
                    "pool_health",
                    pool,
                    f"Pool {pool} is {state}",
                    f"A disk of {pool} has failed or is missing, so the pool has less "
                    "redundancy or none left. Open the pool page to see which disk, "
                    "and replace it.",
                )
            )
        capacity = values.get(f"pool.{pool}.capacity")
        if capacity is not None and capacity > FULL_PERCENT:
            found.append(_full_alert(pool, capacity))
    return found


def swap_alert(values: Mapping[str, float]) -> list[Alert]:
    """Swap in use: the machine ran short of RAM."""
    used = values.get("swap.used", 0.0)
    if used <= 0:
        return []
    return [
        Alert(
            "warning",
            "swap",
            "swap",
            f"Swap in use: {format_bytes(used)}",
            "The machine ran out of RAM and moved memory to disk. Everything gets slower; with "
            "dedup on, this is often the dedup table crowding out the ARC.",
        )
    ]


def ddt_limit(values: Mapping[str, float], share: float) -> tuple[float, str] | None:
    """The DDT's allowance: `share` of the ARC maximum, or of half the RAM without ARC figures."""
    if "arc.c_max" in values:
        return share * values["arc.c_max"], "the ARC maximum"
    if "mem.total" in values:
        # OpenZFS 2.1 on Linux caps the ARC at half the RAM by default
        return share * values["mem.total"] / 2, "half the RAM (the default ARC maximum)"
    return None


def ddt_alerts(
    values: Mapping[str, float],
    pools: list[str],
    share: float,
    growth: Mapping[str, float] | None = None,
) -> list[Alert]:
    """The dedup trap: a DDT over its share of the ARC, or growing to pass it within a day."""
    limit = ddt_limit(values, share)
    if limit is None:
        return []
    allowed, basis = limit
    found = []
    for pool in pools:
        in_core = values.get(f"pool.{pool}.ddt_in_core")
        if not in_core:
            continue
        rate = (growth or {}).get(pool, 0.0)
        what = f"{share:.0%} of {basis}, {format_bytes(allowed)}"
        if in_core > allowed:
            found.append(
                Alert(
                    "danger",
                    "ddt",
                    pool,
                    f"Dedup table of {pool} is too big for RAM: {format_bytes(in_core)}",
                    f"The dedup table needs {format_bytes(in_core)} of RAM, "
                    f"more than its share ({what}). "
                    "When it does not fit in the ARC, every write and delete waits for disk reads: "
                    "copies and deletions can become 100x slower. Turn dedup off for new data or "
                    "add RAM.",
                )
            )
        elif rate > 0 and (allowed - in_core) / rate < DDT_HORIZON:
            hours = (allowed - in_core) / rate / 3600
            found.append(
                Alert(
                    "warning",
                    "ddt",
                    pool,
                    f"Dedup table of {pool} will outgrow RAM in about {hours:.0f} h",
                    f"The dedup table uses {format_bytes(in_core)} of RAM and grows by "
                    f"{format_bytes(rate * 3600)} an hour; at this pace it passes its share "
                    f"({what}) within a day, and then writes and deletes on deduplicated "
                    "data slow down sharply.",
                )
            )
    return found


def growth_per_second(
    newer: Mapping[str, float], older: Mapping[str, float], seconds: float, pools: list[str]
) -> dict[str, float]:
    """DDT bytes-in-RAM growth per second of each pool between two samples."""
    if seconds <= 0:
        return {}
    out = {}
    for pool in pools:
        key = f"pool.{pool}.ddt_in_core"
        if key in newer and key in older:
            out[pool] = (newer[key] - older[key]) / seconds
    return out

"""Alerts from the newest figures (pure): pool health and fullness, swap, and the dedup trap."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from nasui.lib.units import format_bytes
from storage.zfs.dedup import arc_maximum

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


# A disk's state in words. OFFLINE is an administrator's choice (`zpool offline`, the panel's
# Take offline), not a failure; FAULTED, REMOVED and UNAVAIL are, each for its own reason.
DISK_STATE_WORDS = {
    "OFFLINE": "was taken offline on purpose (it has not failed)",
    "FAULTED": "has failed: ZFS took it out of use after too many errors",
    "REMOVED": "was removed: unplugged, or lost by its controller",
    "UNAVAIL": "is unavailable: it cannot be opened (missing, or unreadable)",
}
POOL_STATE_WORDS = {
    "OFFLINE": "was taken offline on purpose",
    "FAULTED": "has failed: it has too few working disks left to be used",
    "REMOVED": "was removed",
    "UNAVAIL": "is unavailable: its disks cannot be opened",
}


def _disk_sentence(pool: str, disk: str, state: str) -> str:
    """One disk of a pool and what its state means."""
    return f"Disk {disk} of {pool} {DISK_STATE_WORDS.get(state, f'is {state}')}."


def _offline_alert(pool: str, state: str, disks: Mapping[str, str]) -> Alert:
    """Disks an administrator took offline: a warning, never the word "failed"."""
    names = ", ".join(sorted(disks)) or pool
    what = " ".join(_disk_sentence(pool, d, s) for d, s in sorted(disks.items()))
    if not disks:
        what = f"Pool {pool} {POOL_STATE_WORDS['OFFLINE']}."
    return Alert(
        "warning",
        "pool_health",
        pool,
        f"Pool {pool} is {state}: {names} taken offline",
        f"{what} Until it is back, the pool has less redundancy or none left. Bring it "
        "online from the pool page when the work on it is done, or replace it.",
    )


def _failure_alert(pool: str, state: str, disks: Mapping[str, str]) -> Alert:
    """Disks that failed, were removed or cannot be opened; the generic words without figures."""
    if disks:
        what = " ".join(_disk_sentence(pool, d, s) for d, s in sorted(disks.items()))
    elif state in POOL_STATE_WORDS and state != "OFFLINE":
        what = f"Pool {pool} {POOL_STATE_WORDS[state]}."
    else:
        what = f"A disk of {pool} has failed or is missing."
    return Alert(
        "danger",
        "pool_health",
        pool,
        f"Pool {pool} is {state}",
        f"{what} The pool has less redundancy or none left. Open the pool page to see which "
        "disk, and replace it.",
    )


def pool_health_alert(pool: str, state: str, disks: Mapping[str, str] | None = None) -> Alert:
    """A pool not ONLINE, in words that follow its disks' states (disk -> state, not ONLINE).

    Only disks taken offline on purpose make a warning that says so; any failed, removed or
    unavailable disk makes it danger. Without the disks' states the pool's own state decides.
    """
    troubled = {d: s for d, s in (disks or {}).items() if s != "ONLINE"}
    if troubled and all(s == "OFFLINE" for s in troubled.values()):
        return _offline_alert(pool, state, troubled)
    if not troubled and state == "OFFLINE":
        return _offline_alert(pool, state, {})
    return _failure_alert(pool, state, troubled)


def pool_alerts(
    values: Mapping[str, float],
    health: Mapping[str, str],
    disks: Mapping[str, Mapping[str, str]] | None = None,
) -> list[Alert]:
    """A pool not ONLINE (worded from `disks`, pool -> disk -> state, when known), or over 80%
    (warning) or 90% (danger) full."""
    found = []
    for pool, state in sorted(health.items()):
        if state != "ONLINE":
            found.append(pool_health_alert(pool, state, (disks or {}).get(pool)))
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
    """The DDT's allowance: `share` of the ARC maximum, or of OpenZFS's default ARC maximum
    (storage's arc_maximum, the one the dedup estimate uses) without ARC figures."""
    c_max = int(values.get("arc.c_max", 0))
    if c_max:
        return share * c_max, "the ARC maximum"
    if "mem.total" in values:
        default = arc_maximum(int(values["mem.total"]), None)
        return share * default, "half the RAM (the default ARC maximum)"
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

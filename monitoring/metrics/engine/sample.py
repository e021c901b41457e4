"""Run every collector once; a failing or missing source is reported and the others go on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from monitoring.metrics.engine import arc, cpu, disk_temp, memory, pool_io, pools
from monitoring.metrics.engine.base import Counters, Metrics, NotAvailable, Reading
from monitoring.metrics.engine.rates import rates


def read_file(path: str) -> str:
    """A /proc file's text; a missing file means the source does not exist on this machine."""
    try:
        return Path(path).read_text()
    except FileNotFoundError as exc:
        raise NotAvailable(f"{path} does not exist") from exc


@dataclass
class Sources:
    """Where the collectors read: /proc files, a ZFS engine for pools, a `zpool iostat` runner.

    `pools` None means no pool source (no ZFS here); `iostat` None means pool I/O cannot be
    measured (the sandbox engine has no I/O counters).
    """

    read_text: Callable[[str], str] = read_file
    pools: pools.PoolSource | None = None
    iostat: Callable[[], str | None] | None = None
    proc: str = "/proc"
    arcstats: str = arc.ARCSTATS
    disk_temperatures: disk_temp.DiskTemperatures | None = None
    # gauges other apps measure (the UPS), by source name: an empty answer means "none here"
    extra: Mapping[str, Callable[[], Metrics]] = field(default_factory=dict)


@dataclass
class Sample:
    """One batch: values by metric, pool health (and the disks of a pool not ONLINE that are
    not ONLINE either), counters for the next rates, what failed."""

    values: Metrics = field(default_factory=dict)
    counters: Counters = field(default_factory=dict)
    health: dict[str, str] = field(default_factory=dict)
    disks: dict[str, dict[str, str]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)


def _disk_states(source: pools.PoolSource, pool: str) -> dict[str, str]:
    """The disks of a pool not ONLINE that are not ONLINE; {} when its status cannot be read
    (its alert then speaks of the pool alone)."""
    try:
        return pools.disk_states(source.pool_status(pool))
    except Exception:  # a pool's figures matter more than the words of its alert
        return {}


def _pools(source: pools.PoolSource | None, out: Sample) -> Reading:
    """Every imported pool's figures; health (and troubled disks) go to `out` for the alerts."""
    if source is None:
        raise NotAvailable("no ZFS engine on this machine")
    values: Metrics = {}
    for pool in source.list_pools():
        out.health[pool.name] = pool.health
        if pool.health != "ONLINE":
            out.disks[pool.name] = _disk_states(source, pool.name)
        ratio = source.get_dataset(pool.name).compressratio
        values.update(pools.pool_metrics(pool, ratio, source.dedup_table(pool.name)))
    return Reading(gauges=values)


def _pool_io(run: Callable[[], str | None] | None) -> Reading:
    """Pool I/O rates over the `zpool iostat` interval."""
    text = run() if run is not None else None
    if text is None:
        raise NotAvailable("pool I/O counters need OpenZFS (`zpool iostat`)")
    return Reading(gauges=pool_io.parse_zpool_iostat(text))


def _collectors(src: Sources, out: Sample) -> list[tuple[str, Callable[[], Reading]]]:
    """(name, thunk) for each source; ARC first, since memory shows the ARC as its own band."""
    arc_size: dict[str, int] = {}

    def read_arc() -> Reading:
        reading = arc.read_arcstats(src.read_text(src.arcstats))
        arc_size["size"] = int(reading.gauges["arc.size"])
        return reading

    def read_mem() -> Reading:
        text = src.read_text(f"{src.proc}/meminfo")
        return memory.read_memory(text, arc_size.get("size"))

    return [
        ("arc", read_arc),
        ("cpu", lambda: cpu.read_proc_stat(src.read_text(f"{src.proc}/stat"))),
        ("load", lambda: cpu.read_loadavg(src.read_text(f"{src.proc}/loadavg"))),
        ("memory", read_mem),
        ("swap_io", lambda: memory.read_vmstat(src.read_text(f"{src.proc}/vmstat"))),
        ("pools", lambda: _pools(src.pools, out)),
        ("pool_io", lambda: _pool_io(src.iostat)),
        *_disk_temp(src),
        *((name, _gauges(read)) for name, read in src.extra.items()),
    ]


def _gauges(read: Callable[[], Metrics]) -> Callable[[], Reading]:
    """Another app's gauges as a reading."""
    return lambda: Reading(gauges=read())


def _disk_temp(src: Sources) -> list[tuple[str, Callable[[], Reading]]]:
    """Disk temperatures, where a SMART refresh feeds them (not in tests of /proc alone)."""
    if src.disk_temperatures is None:
        return []
    return [("disk_temp", lambda: disk_temp.read_disk_temperatures(src.disk_temperatures))]


def take_sample(
    sources: Sources, previous: Mapping[str, int] | None = None, seconds: float = 0.0
) -> Sample:
    """Run all collectors; rates come from `previous` counters read `seconds` ago."""
    out = Sample()
    for name, collect in _collectors(sources, out):
        try:
            reading = collect()
        except NotAvailable as exc:
            out.unavailable[name] = f"not available: {exc}"
            continue
        except Exception as exc:  # one broken source must not stop the others
            out.unavailable[name] = f"failed: {type(exc).__name__}: {exc}"
            continue
        out.values.update(reading.gauges)
        out.counters.update(reading.counters)
    out.values.update(rates(previous, out.counters, seconds))
    return out

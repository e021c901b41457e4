"""CPU time (total and per core) from /proc/stat, and the load average from /proc/loadavg."""

from __future__ import annotations

from collections.abc import Mapping

from monitoring.metrics.engine.base import Counters, Metrics, Reading

# The columns of a "cpu" line of /proc/stat, in clock ticks since boot.
FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def read_proc_stat(text: str) -> Reading:
    """/proc/stat -> counters "cpu.<field>" (all cores) and "cpu<N>.<field>" (one core)."""
    counters: Counters = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts or not parts[0].startswith("cpu"):
            continue
        for name, value in zip(FIELDS, parts[1 : 1 + len(FIELDS)], strict=False):
            counters[f"{parts[0]}.{name}"] = int(value)
    return Reading(counters=counters)


def cpu_names(counters: Mapping[str, int]) -> list[str]:
    """The CPU line names present: "cpu" (all cores) then "cpu0", "cpu1"..."""
    names = {key.split(".", 1)[0] for key in counters if key.startswith("cpu")}
    return sorted(names, key=lambda n: (n != "cpu", len(n), n))


def cpu_percent(deltas: Mapping[str, int]) -> Metrics:
    """Tick deltas over an interval -> busy/user/system/iowait percent, total and per core."""
    metrics: Metrics = {}
    for cpu in cpu_names(deltas):
        ticks = {name: deltas.get(f"{cpu}.{name}", 0) for name in FIELDS}
        total = sum(ticks.values())
        if total <= 0:
            continue
        prefix = "cpu" if cpu == "cpu" else f"cpu.core{cpu[3:]}"
        idle = ticks["idle"] + ticks["iowait"]
        metrics[f"{prefix}.busy"] = 100.0 * (total - idle) / total
        if cpu == "cpu":
            # iowait is idle time with I/O pending: shown apart so users see a disk-bound system.
            metrics["cpu.user"] = 100.0 * (ticks["user"] + ticks["nice"]) / total
            metrics["cpu.system"] = (
                100.0 * (ticks["system"] + ticks["irq"] + ticks["softirq"]) / total
            )
            metrics["cpu.iowait"] = 100.0 * ticks["iowait"] / total
    return metrics


def read_loadavg(text: str) -> Reading:
    """/proc/loadavg -> load.1, load.5, load.15."""
    parts = text.split()
    return Reading(
        gauges={"load.1": float(parts[0]), "load.5": float(parts[1]), "load.15": float(parts[2])}
    )

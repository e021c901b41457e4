"""CPU, RAM and ARC while a copy runs, sampled in a thread with the monitoring collectors."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from monitoring.metrics.engine import arc, cpu, memory

INTERVAL = 0.25  # seconds: /proc/stat counts in 10 ms ticks, so shorter says little
ReadText = Callable[[str], str]


def read_proc(path: str) -> str:
    """A /proc file's text."""
    return Path(path).read_text()


@dataclass(frozen=True)
class LoadSummary:
    """What the machine did during a copy: mean and peak busy CPU, peak RAM and ARC."""

    cpu_percent: float
    cpu_peak_percent: float
    ram_used_bytes: int  # programs, the ARC left out (as the monitoring page shows it)
    arc_bytes: int | None  # None where there is no ARC
    samples: int


@dataclass
class _Peaks:
    """Running maxima over the samples."""

    cpu: float = 0.0
    ram: int = 0
    arc: int | None = None
    samples: int = 0
    first: dict[str, int] = field(default_factory=dict)
    last: dict[str, int] = field(default_factory=dict)


class LoadSampler:
    """`with LoadSampler() as load: ...` then `load.summary()`; sampling stops on exit."""

    def __init__(self, read_text: ReadText = read_proc, interval: float = INTERVAL) -> None:
        self._read = read_text
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-load", daemon=True)
        self._peaks = _Peaks()

    def __enter__(self) -> LoadSampler:
        self._peaks.first = self._peaks.last = self._ticks()
        self._sample_memory()
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()
        self._tick()

    def _run(self) -> None:
        """Sample until told to stop."""
        while not self._stop.wait(self._interval):
            self._tick()

    def _tick(self) -> None:
        """One sample: busy CPU over the last interval, RAM and ARC now."""
        now = self._ticks()
        busy = _busy(self._peaks.last, now)
        if busy is not None:
            self._peaks.cpu = max(self._peaks.cpu, busy)
        self._peaks.last = now
        self._sample_memory()

    def _ticks(self) -> dict[str, int]:
        """The all-cores CPU tick counters."""
        counters = cpu.read_proc_stat(self._read("/proc/stat")).counters
        return {key: value for key, value in counters.items() if key.startswith("cpu.")}

    def _arc_size(self) -> int | None:
        """The ARC's size, None where ZFS is not loaded."""
        try:
            return int(arc.read_arcstats(self._read(arc.ARCSTATS)).gauges["arc.size"])
        except (OSError, KeyError, ValueError):
            return None

    def _sample_memory(self) -> None:
        """Note the RAM programs use and the ARC's size, keeping the peaks."""
        arc_size = self._arc_size()
        gauges = memory.read_memory(self._read("/proc/meminfo"), arc_size).gauges
        self._peaks.ram = max(self._peaks.ram, int(gauges["mem.used"]))
        if arc_size is not None:
            self._peaks.arc = max(self._peaks.arc or 0, arc_size)
        self._peaks.samples += 1

    def summary(self) -> LoadSummary:
        """Mean busy CPU over the whole copy, and the peaks seen."""
        peaks = self._peaks
        mean = _busy(peaks.first, peaks.last)
        return LoadSummary(
            cpu_percent=round(mean or 0.0, 1),
            cpu_peak_percent=round(max(peaks.cpu, mean or 0.0), 1),
            ram_used_bytes=peaks.ram,
            arc_bytes=peaks.arc,
            samples=peaks.samples,
        )


def _busy(before: dict[str, int], after: dict[str, int]) -> float | None:
    """Busy percent of all cores between two tick readings; None when no tick passed."""
    deltas = {key: after[key] - before.get(key, 0) for key in after}
    return cpu.cpu_percent(deltas).get("cpu.busy")


def arc_data_counters(read_text: ReadText = read_proc) -> tuple[int, int] | None:
    """The ARC's (demand data hits, demand data misses) so far; None where there is no ARC."""
    try:
        counters = arc.read_arcstats(read_text(arc.ARCSTATS)).counters
    except (OSError, KeyError, ValueError):
        return None
    return counters["arc.demand_data_hits"], counters["arc.demand_data_misses"]


def arc_hit_percent(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """Share of data reads the ARC served between two readings (None: no ARC, or no reads)."""
    if before is None or after is None:
        return None
    hits, misses = after[0] - before[0], after[1] - before[1]
    return round(100.0 * hits / (hits + misses), 1) if hits + misses > 0 else None

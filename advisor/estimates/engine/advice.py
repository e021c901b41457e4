"""The estimate's recommendation in words: which compression, whether a stronger one pays, dedup.

The numbers that decide it are the estimate's own: the space each algorithm saves on this data
and how fast it compressed on one core of this machine. ZFS compresses on every core, so an
algorithm keeps up with the network when its one-core speed times the cores does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from nasui.lib.units import format_bytes

# What the box must keep up with: one gigabit link, a home NAS's usual way in (MB/s).
LINK_MB_S = 118.0
# Below this share of the data saved, compression is not worth naming: keep lz4, which gives
# up on incompressible blocks at once and costs next to nothing.
MIN_SAVING = 0.05
# A stronger level is worth naming when it saves this much more of the data.
STRONGER_EXTRA = 0.05
DEFAULT = "lz4"
Row = Mapping[str, Any]


def advise(
    rows: Sequence[Row], dedup: Mapping[str, Any] | None, *, cores: int | None = None
) -> dict[str, Any]:
    """The recommendation: the algorithm, why, what a stronger one would do, and dedup."""
    cores = cores or os.cpu_count() or 1
    off = next((row for row in rows if row["algorithm"] == "off"), None)
    measured = [row for row in rows if row["algorithm"] != "off" and row["compress_mb_s"] > 0]
    if off is None or not measured or not off["stored_bytes"]:
        return {"algorithm": DEFAULT, "reason": "Nothing was measured: lz4 is ZFS's default."}
    keeping_up = [row for row in measured if _write_mb_s(row, cores) >= LINK_MB_S]
    choice = _best(keeping_up) if keeping_up else _fastest(measured)
    default = next((row for row in measured if row["algorithm"] == DEFAULT), None)
    if default and _saving(_best(measured), off) < MIN_SAVING:
        choice = default  # nothing to gain: ZFS's default, whatever won a race to nothing
    return {
        "algorithm": choice["algorithm"],
        "reason": _reason(choice, off, cores, measured),
        "stronger": _stronger(choice, off, measured, cores),
        "dedup": _dedup(dedup),
        "dedup_verdict": str(dedup["verdict"]) if dedup else "",
        "cores": cores,
    }


def _write_mb_s(row: Row, cores: int) -> float:
    """How fast ZFS could compress with the row's algorithm on every core (MB/s)."""
    return float(row["compress_mb_s"]) * cores


def _saving(row: Row, off: Row) -> float:
    """The share of the uncompressed space the row saves."""
    return float(row["saved_bytes"]) / float(off["stored_bytes"])


def _best(rows: Sequence[Row]) -> Row:
    """The row saving the most; near-ties (under half a percent) go to the faster one."""
    top = max(row["saved_bytes"] for row in rows)
    close = [row for row in rows if row["saved_bytes"] >= top - abs(top) * 0.005]
    return max(close, key=lambda row: row["compress_mb_s"])


def _fastest(rows: Sequence[Row]) -> Row:
    """The fastest row (none keeps up with the link on this machine)."""
    return max(rows, key=lambda row: row["compress_mb_s"])


def _reason(choice: Row, off: Row, cores: int, measured: Sequence[Row]) -> str:
    """Why: the space it saves and the speed it compresses at, against the link."""
    name, saving = choice["algorithm"], _saving(choice, off)
    speed = (
        f"compresses at {choice['compress_mb_s']:.0f} MB/s on one core "
        f"({_write_mb_s(choice, cores):.0f} MB/s on {cores})"
    )
    if saving < MIN_SAVING:
        best = _best(measured)
        return (
            f"Use {name}: this data hardly compresses (the best, {best['algorithm']}, saves "
            f"{_saving(best, off):.1%}); {name} {speed} and gives up on incompressible blocks "
            "at once, so it costs next to nothing."
        )
    if _write_mb_s(choice, cores) < LINK_MB_S:
        return (
            f"Use {name}: it saves {saving:.1%} ({format_bytes(choice['saved_bytes'])}) and is "
            f"the fastest here, yet it {speed}: under a gigabit link's {LINK_MB_S:.0f} MB/s, "
            "so writes over the network will wait on the CPU."
        )
    return (
        f"Use {name}: it saves {saving:.1%} ({format_bytes(choice['saved_bytes'])}, ratio "
        f"{choice['ratio']:.2f}x) and {speed}, enough for a gigabit link "
        f"({LINK_MB_S:.0f} MB/s)."
    )


def _stronger(choice: Row, off: Row, measured: Sequence[Row], cores: int) -> str:
    """Whether a stronger (slower) algorithm would be worth it, with its numbers."""
    best = _best(measured)
    extra = _saving(best, off) - _saving(choice, off)
    if best is choice or extra <= 0:
        return f"No algorithm measured saves more than {choice['algorithm']}."
    figures = (
        f"{best['algorithm']} would save {extra:.1%} more "
        f"({format_bytes(best['saved_bytes'] - choice['saved_bytes'])}) at "
        f"{best['compress_mb_s']:.0f} MB/s on one core ({_write_mb_s(best, cores):.0f} on {cores})"
    )
    if extra < STRONGER_EXTRA:
        return f"A stronger level is not worth it: {figures}."
    return (
        f"A stronger level is worth it for data written once and kept (archives, backups): "
        f"{figures}. Set it on such a dataset only; reading stays fast."
    )


def _dedup(dedup: Mapping[str, Any] | None) -> str:
    """Dedup's verdict (worth it, costly, a trap) with its numbers, or why it was not judged."""
    if not dedup:
        return ""
    return str(dedup["reason"])

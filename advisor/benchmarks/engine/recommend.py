"""Pick the setting to recommend from the measured rows, with a reason in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# A setting may write this much slower than no compression and still be recommended.
SLOWDOWN_ALLOWED = 0.25
# Below this saving compression is not worth naming, and LZ4 (free on such data) is kept.
MIN_SAVING = 0.05
# Dedup costs RAM for its table and slows writes: only worth it when it halves the space
# of the best compression alone, and still writes at half the speed of no compression.
DEDUP_MIN_EXTRA_SAVING = 0.5
DEDUP_SLOWDOWN_ALLOWED = 0.5
Row = Mapping[str, Any]


@dataclass(frozen=True)
class Recommendation:
    """The setting to use and why."""

    setting: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        """As stored in the job's result."""
        return {"setting": self.setting, "reason": self.reason}


def recommend(rows: Sequence[Row]) -> Recommendation:
    """The best space saving among the settings fast enough to write; dedup only if it pays."""
    if not rows:
        return Recommendation("", "No setting was measured.")
    baseline = _baseline(rows)
    plain = [r for r in rows if not _is_dedup(r)] or list(rows)
    fast = [r for r in plain if _speed(r, baseline) >= 1 - SLOWDOWN_ALLOWED] or [baseline]
    best = min(fast, key=lambda r: (r["used_bytes"], -r["write_mb_s"]))
    dedup = _dedup_worth_it(rows, best, baseline)
    if dedup is not None:
        return dedup
    if _saving(best, baseline) < MIN_SAVING:
        return _little_to_gain(fast, best, baseline)
    return Recommendation(best["setting"], _because(best, baseline))


def _baseline(rows: Sequence[Row]) -> Row:
    """The row everything is compared with: no compression, else the largest."""
    for row in rows:
        if row["setting"] == "off":
            return row
    return max(rows, key=lambda r: r["used_bytes"])


def _is_dedup(row: Row) -> bool:
    """True for a row with dedup on."""
    return str(row.get("properties", {}).get("dedup", "off")) != "off"


def _speed(row: Row, baseline: Row) -> float:
    """Write speed as a fraction of the baseline's (1.0 when the baseline has none)."""
    base = float(baseline["write_mb_s"])
    return float(row["write_mb_s"]) / base if base > 0 else 1.0


def _saving(row: Row, baseline: Row) -> float:
    """The fraction of the baseline's space the row saves."""
    base = int(baseline["used_bytes"])
    return 1 - int(row["used_bytes"]) / base if base > 0 else 0.0


def _because(row: Row, baseline: Row) -> str:
    """'LZ4 saved 38% of the space ... at 95% of the write speed of no compression.'"""
    return (
        f"{row['label']} saved {_saving(row, baseline):.0%} of the space {_name(baseline)} "
        f"takes, writing at {_speed(row, baseline):.0%} of its speed "
        f"({row['write_mb_s']:.0f} MB/s): the best saving among the settings that write "
        f"within {SLOWDOWN_ALLOWED:.0%} of that speed."
    )


def _name(baseline: Row) -> str:
    """How the reason names the baseline."""
    return "no compression" if baseline["setting"] == "off" else str(baseline["label"])


def _little_to_gain(fast: Sequence[Row], best: Row, baseline: Row) -> Recommendation:
    """This data hardly compresses: LZ4 (which gives up on such blocks cheaply) or off."""
    lz4 = [r for r in fast if r["setting"] == "lz4"]
    pick = lz4[0] if lz4 else baseline
    return Recommendation(
        pick["setting"],
        f"This data hardly compresses (the best setting saved {_saving(best, baseline):.0%}). "
        + (
            "LZ4 gives up quickly on blocks that do not compress, so it costs almost nothing "
            "and still saves space on the files that do."
            if lz4
            else "No setting is worth its CPU time on it."
        ),
    )


def _dedup_worth_it(rows: Sequence[Row], best: Row, baseline: Row) -> Recommendation | None:
    """The dedup row when it halves the best compression's space at a bearable speed."""
    for row in rows:
        if not _is_dedup(row) or row is best:
            continue
        extra = 1 - int(row["used_bytes"]) / max(1, int(best["used_bytes"]))
        if extra >= DEDUP_MIN_EXTRA_SAVING and _speed(row, baseline) >= DEDUP_SLOWDOWN_ALLOWED:
            return Recommendation(
                row["setting"],
                f"{row['label']} took {extra:.0%} less space than {best['label']} alone, "
                f"writing at {_speed(row, baseline):.0%} of the speed of {_name(baseline)}. "
                "Dedup keeps a table of every block in RAM: check the estimate of its size "
                "before turning it on.",
            )
    return None

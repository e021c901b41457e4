"""Pick the setting to recommend from the measured rows, in words with the numbers that decide it.

It answers three questions: which compression (space saved against write speed on this
machine), whether a stronger level is worth it, and whether dedup is worth it, costly or a trap.
Where the engine does not compress while writing (the sandbox), write speeds say nothing about
the settings: the choice then rests on space alone, the lighter of two settings that save about
the same winning, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from nasui.lib.units import format_bytes
from storage.zfs.dedup import RULE_CORE_BYTES_PER_ENTRY

# A setting may write this much slower than no compression and still be recommended.
SLOWDOWN_ALLOWED = 0.25
# Below this saving compression is not worth naming, and LZ4 (free on such data) is kept.
MIN_SAVING = 0.05
# A setting heavier in CPU must save this much more of the baseline's space to be worth it.
STRONGER_MIN_GAIN = 0.05
# Dedup costs RAM for its table and slows writes: only worth it when it halves the space
# of the best compression alone, and still writes at half the speed of no compression.
DEDUP_MIN_EXTRA_SAVING = 0.5
DEDUP_SLOWDOWN_ALLOWED = 0.5
# Below this extra saving dedup is a trap: the table's RAM and lookups buy almost nothing.
DEDUP_TRAP_BELOW = 0.1
# From the lightest to the heaviest in CPU per byte written, as these algorithms are known to
# be everywhere (not measured here): it breaks near-ties when speeds cannot be trusted.
CPU_ORDER = ("off", "zle", "lz4", "zstd", "gzip-1", "gzip-6", "zstd-19")
RECORD = 128 * 1024
TIB = 1024**4
# The dedup table's RAM for a TiB of unique data in 128 KiB records, by the rule of thumb.
DDT_RAM_PER_TIB = TIB // RECORD * RULE_CORE_BYTES_PER_ENTRY
DDT_RAM = (
    f"about {RULE_CORE_BYTES_PER_ENTRY} bytes of RAM per unique block "
    f"({format_bytes(DDT_RAM_PER_TIB)} per TiB of unique data in 128 KiB records)"
)
SPEEDS_NOT_USED = (
    "Speeds are not used: this sandbox does not compress while writing, so its write speeds "
    "say nothing about the settings. The choice rests on the space each setting took."
)
WORTH_IT, COSTLY, TRAP = "worth it", "costly", "a trap"
Row = Mapping[str, Any]


@dataclass(frozen=True)
class Recommendation:
    """The setting to use and why; what a stronger level and dedup would do."""

    setting: str
    reason: str
    label: str = ""
    stronger: str = ""  # whether a setting that saved more would be worth its cost
    dedup_verdict: str = ""  # WORTH_IT, COSTLY or TRAP ("" when dedup was not tried)
    dedup: str = ""  # the verdict's reason, with its numbers
    speed_note: str = ""  # why write speeds were left out ("" when they were used)

    def as_dict(self) -> dict[str, str]:
        """As stored in the job's result."""
        return asdict(self)


def recommend(
    rows: Sequence[Row], *, speeds: bool = True, sample_share: float = 1.0
) -> Recommendation:
    """The best space saving among the settings fast enough to write; dedup only if it pays.

    speeds: False when the write speeds are not honest (the engine does not compress while
    writing): the pick then rests on space. sample_share: what fraction of the source the
    sample was (duplicates far apart are missed by a small one).
    """
    if not rows:
        return Recommendation("", "No setting was measured.")
    baseline = _baseline(rows)
    plain = [r for r in rows if not _is_dedup(r)] or list(rows)
    choice, reason = _compression(plain, baseline, speeds)
    stronger = _stronger(plain, choice, baseline, speeds)
    verdict, why, dedup = _dedup(rows, choice, baseline, speeds, sample_share)
    pick = choice
    if dedup is not None and verdict == WORTH_IT:
        pick, reason = dedup, why
    note = "" if speeds else SPEEDS_NOT_USED
    return Recommendation(pick["setting"], reason, str(pick["label"]), stronger, verdict, why, note)


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


def _cpu_rank(row: Row) -> int:
    """Where the row's compression sits in CPU_ORDER (an unknown one counts as heaviest)."""
    algorithm = str(row.get("properties", {}).get("compression", row["setting"]))
    return CPU_ORDER.index(algorithm) if algorithm in CPU_ORDER else len(CPU_ORDER)


def _used(row: Row) -> str:
    """The row's space, readable."""
    return format_bytes(int(row["used_bytes"]))


def _name(baseline: Row) -> str:
    """How the reason names the baseline."""
    return "no compression" if baseline["setting"] == "off" else str(baseline["label"])


def _compression(plain: Sequence[Row], baseline: Row, speeds: bool) -> tuple[Row, str]:
    """The compression to use and why."""
    if speeds:
        fast = [r for r in plain if _speed(r, baseline) >= 1 - SLOWDOWN_ALLOWED] or [baseline]
        best = min(fast, key=lambda r: (r["used_bytes"], -r["write_mb_s"]))
        if _saving(best, baseline) >= MIN_SAVING:
            return best, _because(best, baseline)
        savers = [r for r in plain if _saving(r, baseline) >= MIN_SAVING]
        if savers:  # the data compresses, but not fast enough: cite the fastest that saves
            return best, _too_slow(best, max(savers, key=lambda r: r["write_mb_s"]), baseline)
        return _little_to_gain(fast, best, baseline)
    best = _lightest_near_smallest(plain, baseline)
    if _saving(best, baseline) < MIN_SAVING:
        return _little_to_gain(plain, min(plain, key=lambda r: r["used_bytes"]), baseline)
    return best, _because_space(best, plain, baseline)


def _lightest_near_smallest(plain: Sequence[Row], baseline: Row) -> Row:
    """The lightest setting saving within STRONGER_MIN_GAIN of the best saving."""
    top = max(_saving(r, baseline) for r in plain)
    near = [r for r in plain if _saving(r, baseline) >= top - STRONGER_MIN_GAIN]
    return min(near, key=lambda r: (_cpu_rank(r), r["used_bytes"]))


def _because(row: Row, baseline: Row) -> str:
    """'ZSTD saved 50% of the space ... writing at 85% of its speed on this machine ...'"""
    return (
        f"{row['label']} saved {_saving(row, baseline):.0%} of the space {_name(baseline)} "
        f"takes ({_used(row)} instead of {_used(baseline)}), writing at "
        f"{_speed(row, baseline):.0%} of its speed on this machine ({row['write_mb_s']:.0f} "
        f"against {baseline['write_mb_s']:.0f} MB/s): the best saving among the settings "
        f"that write within {SLOWDOWN_ALLOWED:.0%} of that speed."
    )


def _too_slow(best: Row, saver: Row, baseline: Row) -> str:
    """The data compresses, but every setting that saves space writes too slowly here."""
    return (
        f"{saver['label']} saved {_saving(saver, baseline):.0%} of the space "
        f"{_name(baseline)} takes ({_used(saver)} instead of {_used(baseline)}) but wrote at "
        f"{_speed(saver, baseline):.0%} of its speed on this machine "
        f"({saver['write_mb_s']:.0f} against {baseline['write_mb_s']:.0f} MB/s), and every "
        f"setting that saves space wrote more than {SLOWDOWN_ALLOWED:.0%} slower: "
        f"{best['label']} keeps writes at full speed."
    )


def _because_space(row: Row, plain: Sequence[Row], baseline: Row) -> str:
    """'ZSTD saved 48% of the space ...; GZIP level 6 saved 50%, within 5% of it ...'"""
    text = (
        f"{row['label']} saved {_saving(row, baseline):.0%} of the space {_name(baseline)} "
        f"takes ({_used(row)} instead of {_used(baseline)})"
    )
    smallest = min(plain, key=lambda r: (r["used_bytes"], _cpu_rank(r)))
    if smallest["used_bytes"] < row["used_bytes"]:
        text += (
            f"; {smallest['label']} saved {_saving(smallest, baseline):.0%}, within "
            f"{STRONGER_MIN_GAIN:.0%} of it, for more CPU per byte."
        )
    else:
        text += ", as much as any setting tried."
    lighter = [r for r in plain if _cpu_rank(r) < _cpu_rank(row) and r is not baseline]
    if lighter:
        best = min(lighter, key=lambda r: r["used_bytes"])
        text += (
            f" Lighter settings saved less: {best['label']} {_saving(best, baseline):.0%} "
            f"({_used(best)})."
        )
    return text


def _little_to_gain(candidates: Sequence[Row], best: Row, baseline: Row) -> tuple[Row, str]:
    """This data hardly compresses: LZ4 (which gives up on such blocks cheaply) or off."""
    lz4 = [r for r in candidates if r["setting"] == "lz4"]
    pick = lz4[0] if lz4 else baseline
    return pick, (
        f"This data hardly compresses (the best setting saved {_saving(best, baseline):.0%}). "
        + (
            "LZ4 gives up quickly on blocks that do not compress, so it costs almost nothing "
            "and still saves space on the files that do."
            if lz4
            else "No setting is worth its CPU time on it."
        )
    )


def _stronger(plain: Sequence[Row], choice: Row, baseline: Row, speeds: bool) -> str:
    """Whether the setting that saved more than the choice is worth its cost, and when."""
    better = [r for r in plain if r["used_bytes"] < choice["used_bytes"] and not _is_dedup(r)]
    if not better:
        heavier = [r["label"] for r in plain if _cpu_rank(r) > _cpu_rank(choice)]
        if not heavier:
            return ""
        return (
            f"A stronger level is not worth it: none of those tried ({', '.join(heavier)}) "
            f"took less space than {choice['label']}."
        )
    top = min(better, key=lambda r: r["used_bytes"])
    gain = _saving(top, baseline) - _saving(choice, baseline)
    worth = gain >= STRONGER_MIN_GAIN
    further = (
        f"{top['label']} saves {'a further' if worth else 'only a further'} {gain:.0%} of the "
        f"space {_name(baseline)} takes ({_used(top)} against {_used(choice)})"
    )
    cost = (
        f"writes at {top['write_mb_s']:.0f} MB/s, {_speed(top, baseline):.0%} of the speed "
        f"of {_name(baseline)}"
        if speeds
        else "costs more CPU per byte"
    )
    if worth:
        return (
            f"A stronger level pays where space matters more than write speed (archives, "
            f"backups written once): {further} but {cost}."
        )
    return f"A stronger level is not worth it: {further} and {cost}."


def _dedup(
    rows: Sequence[Row], choice: Row, baseline: Row, speeds: bool, sample_share: float
) -> tuple[str, str, Row | None]:
    """(verdict, reason, dedup row) for the dedup row against the chosen compression alone."""
    found = [r for r in rows if _is_dedup(r) and r is not choice]
    if not found:
        return "", "", None
    row = found[0]
    extra = 1 - int(row["used_bytes"]) / max(1, int(choice["used_bytes"]))
    took = _dedup_took(row, choice, baseline, extra, speeds)
    slow = speeds and _speed(row, baseline) < DEDUP_SLOWDOWN_ALLOWED
    if extra >= DEDUP_MIN_EXTRA_SAVING and not slow:
        return (
            WORTH_IT,
            f"{took}. Dedup keeps a table of every block in RAM, {DDT_RAM}: check the "
            "estimate of its size before turning it on.",
            row,
        )
    # A sample misses most duplicates that lie far apart: say so where dedup looks poor.
    missed = (
        ""
        if sample_share >= 1
        else f" Only {_share(sample_share)} of the source was copied, so duplicates far apart "
        "are mostly missed: the estimate, which hashes every block, judges dedup better."
    )
    if extra < DEDUP_TRAP_BELOW:
        return (
            TRAP,
            f"Dedup is a trap here: {took}, yet its table takes {DDT_RAM} and every write "
            f"looks it up. Leave it off.{missed}",
            row,
        )
    why = (
        f"it writes at only {_speed(row, baseline):.0%} of the speed of {_name(baseline)}"
        if slow
        else f"saving less than {DEDUP_MIN_EXTRA_SAVING:.0%} does not pay for that"
    )
    return (
        COSTLY,
        f"Dedup is costly: {took}, but its table takes {DDT_RAM}, and {why}. Worth it only "
        f"with RAM to spare and space short.{missed}",
        row,
    )


def _dedup_took(row: Row, choice: Row, baseline: Row, extra: float, speeds: bool) -> str:
    """'Dedup (with LZ4) took 67% less space than LZ4 alone (20 MiB against 60 MiB), ...'"""
    less = f"{extra:.0%} less" if extra > 0 else "no less"
    took = (
        f"{row['label']} took {less} space than {choice['label']} alone "
        f"({_used(row)} against {_used(choice)})"
    )
    if speeds:
        took += f", writing at {_speed(row, baseline):.0%} of the speed of {_name(baseline)}"
    return took


def _share(fraction: float) -> str:
    """'25%', or 'less than 1%' (a tiny sample does not read as none)."""
    return f"{fraction:.0%}" if fraction >= 0.005 else "less than 1%"

"""The advisor's estimate: sample blocks for compression, hash every block for dedup."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from advisor.estimates.engine.advice import advise
from advisor.estimates.engine.compression import MB, report_all
from advisor.estimates.engine.dedup import DEFAULT_CAP, verdict
from advisor.estimates.engine.hashpass import Hashed, hash_blocks
from advisor.estimates.engine.sampler import Sampled, sample_compression
from advisor.estimates.engine.sampling import DEFAULT_SEED
from advisor.estimates.engine.sources import Input, Layout, layout
from storage.zfs.dedup import RULE_CORE_BYTES_PER_ENTRY, arc_maximum, ddt_ram_bytes

DEFAULT_ALGORITHMS = ("lz4", "gzip-1", "gzip-6", "gzip-9", "zstd-1", "zstd-3", "zstd-19")
# The compression sample may use this share of the time budget; the dedup pass gets the rest.
COMPRESSION_SHARE = 0.4
TICK = 0.25  # seconds between progress calls (the caller needs one at least every 0.5 s)
# Percent of the progress bar at the start of each phase.
AT_SAMPLE, AT_DEDUP = 2, 40
Progress = Callable[[int, str], None]


def _quiet(_percent: int, _message: str) -> None:
    """The default progress callback: says nothing."""


class Clock:
    """Calls progress at most every TICK seconds; its exceptions (cancellation) propagate."""

    def __init__(self, progress: Progress) -> None:
        """Start the clock now."""
        self.progress = progress
        self.started = time.monotonic()
        self.last = -TICK

    def tick(self, percent: float, message: str, *, force: bool = False) -> None:
        """Report progress if enough time passed since the last report."""
        now = time.monotonic()
        if force or now - self.last >= TICK:
            self.last = now
            self.progress(min(100, int(percent)), message)

    def elapsed(self) -> float:
        """Seconds since the estimate started."""
        return time.monotonic() - self.started


def estimate(
    inp: Input,
    *,
    sample_bytes: int,
    time_budget: float,
    algorithms: Sequence[str] = DEFAULT_ALGORITHMS,
    dedup_compression: str = "off",
    ram_total: int,
    arc_max: int | None,
    core_bytes_per_entry: int | None,
    progress: Progress = _quiet,
    hash_cap: int = DEFAULT_CAP,
    seed: int = DEFAULT_SEED,
) -> dict[str, Any]:
    """Estimate compression (by sampling) and dedup (by hashing every block) of the input."""
    clock = Clock(progress)
    clock.tick(0, f"Listing the blocks of {inp.name}", force=True)
    found = layout(inp, lambda count: clock.tick(0, f"Listing files: {count} found"))
    sample_deadline = clock.started + time_budget * COMPRESSION_SHARE
    sampled = sample_compression(
        inp,
        found,
        sample_bytes,
        algorithms,
        tick=lambda done, msg: clock.tick(AT_SAMPLE + (AT_DEDUP - AT_SAMPLE) * done, msg),
        deadline=sample_deadline,
        seed=seed,
    )
    hashed = hash_blocks(
        inp,
        found,
        dedup_compression,
        tick=lambda done, msg: clock.tick(AT_DEDUP + (99 - AT_DEDUP) * done, msg, force=not done),
        deadline=clock.started + time_budget,
        cap=hash_cap,
    )
    rows = report_all(
        sampled.tallies, blocks=found.blocks, logical=found.logical, wanted=sampled.wanted
    )
    dedup = _dedup_report(
        found,
        hashed,
        dedup_compression,
        ram_total=ram_total,
        arc_max=arc_max,
        per_entry=core_bytes_per_entry,
    )
    result: dict[str, Any] = {
        "advice": advise(rows, dedup),
        "input": _input_report(inp, found),
        "sample": _sample_report(found, sampled, hashed, clock.elapsed()),
        "compression": rows,
        "dedup": dedup,
    }
    clock.tick(100, _done(result["sample"]), force=True)
    return result


def _done(sample: dict[str, Any]) -> str:
    """The last progress message: done, or done on a sample the time budget cut short."""
    if sample["complete"]:
        return "Estimate done on the whole sample"
    counts = ", ".join(f"{name} {blocks}" for name, blocks in sample["cut_short"].items())
    read = f" (blocks measured of {sample['wanted_blocks']}: {counts})" if counts else ""
    return f"Estimate done on a sample cut short by the time budget{read}"


def _input_report(inp: Input, found: Layout) -> dict[str, Any]:
    """The "input" section."""
    return {
        "kind": inp.kind,
        "name": inp.name,
        "path": str(inp.path),
        "bytes": found.bytes,
        "logical_bytes": found.logical,
        "files": len(found.files),
        "skipped_files": found.skipped,
        "blocks": found.blocks,
        "block_size": inp.block_size,
        "sector_size": inp.sector_size,
    }


def _sample_report(
    found: Layout, sampled: Sampled, hashed: Hashed, seconds: float
) -> dict[str, Any]:
    """The "sample" section, with a note saying what the figures rest on."""
    complete = not sampled.cut_short() and hashed.complete
    return {
        "blocks": sampled.blocks,
        "bytes": sampled.size,
        "wanted_blocks": sampled.wanted,
        "cut_short": {tally.algorithm: tally.blocks for tally in sampled.cut_short()},
        "seconds": round(seconds, 2),
        "complete": complete,
        "note": _note(found, sampled, hashed),
    }


def _note(found: Layout, sampled: Sampled, hashed: Hashed) -> str:
    """Plain sentences: the sample's share, the hash share, what the time budget cut."""
    share = sampled.blocks / found.blocks if found.blocks else 0.0
    parts = [
        f"Compression from {sampled.blocks} of {found.blocks} blocks ({share:.1%}) picked at "
        f"random over the input; dedup from every block read, keeping "
        f"1/{1 << hashed.sample.level} of the hash space."
    ]
    if short := sampled.cut_short():
        counts = ", ".join(f"{tally.algorithm} {tally.blocks}" for tally in short)
        parts.append(
            f"The time budget stopped these before the {sampled.wanted} blocks wanted "
            f"(blocks each measured: {counts}); their intervals are wider."
        )
    if not hashed.complete:
        read = hashed.offered / found.blocks if found.blocks else 0.0
        parts.append(
            f"The time budget ran out after reading {read:.0%} of the blocks: dedup "
            "figures are scaled up from that part, and duplicates of blocks not read "
            "were not seen."
        )
    if found.skipped:
        parts.append(f"{found.skipped} files could not be read and are not counted.")
    return " ".join(parts)


def _dedup_report(
    found: Layout,
    hashed: Hashed,
    compression: str,
    *,
    ram_total: int,
    arc_max: int | None,
    per_entry: int | None,
) -> dict[str, Any]:
    """The "dedup" section: ratio, unique blocks, table size and verdict."""
    sample = hashed.sample
    scale = found.blocks / hashed.offered if hashed.offered and not hashed.complete else 1.0
    unique = round(sample.unique_blocks() * scale)
    ratio = sample.ratio()
    entry = per_entry or RULE_CORE_BYTES_PER_ENTRY
    arc = arc_maximum(ram_total, arc_max)
    table = ddt_ram_bytes(unique, per_entry)  # the one formula every page's DDT figure uses
    saved = round(sample.allocated_bytes() * scale * (1 - 1 / ratio)) if ratio > 0 else 0
    judged = verdict(ratio=ratio, ddt_bytes=table, arc_max=arc, saved_bytes=saved)
    return {
        "ratio": round(ratio, 4),
        "unique_blocks": unique,
        "blocks": round(sample.blocks * scale),
        "fraction": sample.fraction,
        "kept_hashes": len(sample.kept),
        "compression": compression,
        "ddt_bytes": table,
        "core_bytes_per_entry": entry,
        "per_entry_source": "pool" if per_entry else "rule",
        "ram_total": ram_total,
        "arc_max": arc,
        "verdict": judged.verdict,
        "reason": judged.reason,
        "complete": hashed.complete,
        "read_mb_s": round(hashed.read / hashed.seconds / MB, 1) if hashed.seconds else 0.0,
        "read_bytes": hashed.read,
        "hash": hashed.hash,
        "saved_bytes": saved,
    }

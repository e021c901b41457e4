"""The advisor's estimate: sample blocks for compression, hash every block for dedup."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.estimates.engine import sampling
from advisor.estimates.engine.accounting import zero_is_hole
from advisor.estimates.engine.compression import MB, Tally, report_all
from advisor.estimates.engine.dedup import DEFAULT_CAP, verdict
from advisor.estimates.engine.hashpass import Hashed, hash_blocks
from advisor.estimates.engine.sources import Input, Layout, layout, read_block
from storage.zfs.dedup import RULE_CORE_BYTES_PER_ENTRY, arc_maximum, ddt_ram_bytes

DEFAULT_ALGORITHMS = ("lz4", "gzip-1", "gzip-6", "gzip-9", "zstd-1", "zstd-3", "zstd-19")
# The compression sample may use this share of the time budget; the dedup pass gets the rest.
COMPRESSION_SHARE = 0.4
MIN_SAMPLE = 8  # blocks sampled even past the budget: a ratio from nothing is no estimate
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


@dataclass
class Sampled:
    """The compression phase's outcome."""

    tallies: list[Tally]
    wanted: int
    blocks: int = 0
    size: int = 0  # bytes of the sampled blocks


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
) -> dict[str, Any]:
    """Estimate compression (by sampling) and dedup (by hashing every block) of the input."""
    clock = Clock(progress)
    clock.tick(0, f"Listing the blocks of {inp.name}", force=True)
    found = layout(inp, lambda count: clock.tick(0, f"Listing files: {count} found"))
    sample_deadline = clock.started + time_budget * COMPRESSION_SHARE
    sampled = sample_compression(inp, found, sample_bytes, algorithms, clock, sample_deadline)
    hashed = hash_blocks(
        inp,
        found,
        dedup_compression,
        tick=lambda done, msg: clock.tick(AT_DEDUP + (99 - AT_DEDUP) * done, msg, force=not done),
        deadline=clock.started + time_budget,
        cap=hash_cap,
    )
    result = {
        "input": _input_report(inp, found),
        "sample": _sample_report(found, sampled, hashed, clock.elapsed()),
        "compression": report_all(sampled.tallies, blocks=found.blocks, logical=found.logical),
        "dedup": _dedup_report(
            found,
            hashed,
            dedup_compression,
            ram_total=ram_total,
            arc_max=arc_max,
            per_entry=core_bytes_per_entry,
        ),
    }
    clock.tick(100, "Estimate done", force=True)
    return result


def sample_compression(
    inp: Input,
    found: Layout,
    sample_bytes: int,
    algorithms: Sequence[str],
    clock: Clock,
    deadline: float,
) -> Sampled:
    """Compress spread-out blocks with every algorithm until the sample or its time is used."""
    names = ["off", *(a for a in dict.fromkeys(algorithms) if a != "off")]
    wanted = sampling.sample_count(found.blocks, found.logical, sample_bytes)
    sampled = Sampled([Tally(name) for name in names], wanted)
    order = sampling.visiting_order(sampling.positions(found.blocks, wanted))
    for ordinal in order:
        if sampled.blocks >= MIN_SAMPLE and time.monotonic() > deadline:
            break
        file, index = found.locate(ordinal)
        try:
            data = read_block(file, index)
        except OSError:
            continue  # the file went away since the listing
        for tally in sampled.tallies:
            tally.add(
                data,
                sector_size=inp.sector_size,
                zero_is_hole=zero_is_hole(tally.algorithm, inp.kind),
            )
            percent = AT_SAMPLE + (AT_DEDUP - AT_SAMPLE) * sampled.blocks / max(1, wanted)
            clock.tick(percent, f"Compressing sampled blocks ({tally.algorithm})")
        sampled.blocks += 1
        sampled.size += len(data)
    return sampled


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
    complete = sampled.blocks >= sampled.wanted and hashed.complete
    return {
        "blocks": sampled.blocks,
        "bytes": sampled.size,
        "wanted_blocks": sampled.wanted,
        "seconds": round(seconds, 2),
        "complete": complete,
        "note": _note(found, sampled, hashed),
    }


def _note(found: Layout, sampled: Sampled, hashed: Hashed) -> str:
    """Plain sentences: the sample's share, the hash share, what the time budget cut."""
    share = sampled.blocks / found.blocks if found.blocks else 0.0
    parts = [
        f"Compression from {sampled.blocks} of {found.blocks} blocks ({share:.1%}) spread over "
        f"the input; dedup from every block read, keeping 1/{1 << hashed.sample.level} of the "
        "hash space."
    ]
    if sampled.blocks < sampled.wanted:
        parts.append(
            f"The time budget stopped the compression sample at {sampled.blocks} of "
            f"{sampled.wanted} blocks, so its intervals are wider."
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

"""The compression sample: blocks in a random order, each algorithm on as many as its time buys.

Every algorithm walks the same visiting order (sampling.py), so what it got is a prefix and a
uniform sample. The phase's time is shared by water-filling: each algorithm still sampling may
spend an equal share of what is left plus what they spent; a fast one that reaches the end of
the sample leaves its unspent share to the slow ones, and a slow one stops where its share ends.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from advisor.estimates.engine import sampling
from advisor.estimates.engine.accounting import zero_is_hole
from advisor.estimates.engine.compression import Lz4Tally, Tally, tally_for
from advisor.estimates.engine.sources import Input, Layout, read_block

MIN_SAMPLE = 8  # blocks an algorithm gets even past its share: a ratio from nothing is none
Tick = Callable[[float, str], None]  # (share of the phase done, message)


class Spender(Protocol):
    """Anything with a share of the budget: an algorithm, or OpenZFS's lz4 sizing."""

    blocks: int
    seconds: float
    cut: bool

    def demand(self, wanted: int) -> float:
        """Seconds it would spend on the whole sample of `wanted` blocks, at its pace so far."""


@dataclass
class Sampled:
    """The compression phase's outcome."""

    tallies: list[Tally]
    wanted: int
    blocks: int = 0  # blocks visited (compression off, the baseline, saw them all)
    size: int = 0  # bytes of the visited blocks

    def cut_short(self) -> list[Tally]:
        """The algorithms that stopped before the whole sample."""
        return [tally for tally in self.tallies if tally.blocks < self.wanted]


class Budget:
    """Water-filling of the phase's time among the spenders still at work."""

    def __init__(self, deadline: float, wanted: int) -> None:
        """A budget ending at `deadline` (time.monotonic()) for a sample of `wanted` blocks."""
        self.deadline = deadline
        self.wanted = wanted

    def cut(self, spenders: Sequence[Spender]) -> None:
        """Mark cut each spender past its share (those under MIN_SAMPLE blocks go on)."""
        remaining = max(0.0, self.deadline - time.monotonic())
        share = level(
            [s.demand(self.wanted) for s in spenders], sum(s.seconds for s in spenders) + remaining
        )
        for spender in spenders:
            if spender.blocks >= MIN_SAMPLE and (spender.seconds > share or not remaining):
                spender.cut = True


def level(demands: list[float], total: float) -> float:
    """The water level L where the demands, each capped at L, add up to `total` (or inf)."""
    left = total
    for done, demand in enumerate(sorted(demands)):
        rest = len(demands) - done
        if demand * rest >= left:
            return left / rest
        left -= demand
    return math.inf


def sample_compression(
    inp: Input,
    found: Layout,
    sample_bytes: int,
    algorithms: Sequence[str],
    *,
    tick: Tick,
    deadline: float,
    seed: int = sampling.DEFAULT_SEED,
) -> Sampled:
    """Compress the sampled blocks with every algorithm, each as far as its share of time."""
    names = ["off", *(a for a in dict.fromkeys(algorithms) if a != "off")]
    wanted = sampling.sample_count(found.blocks, found.logical, sample_bytes)
    sampled = Sampled([tally_for(name) for name in names], wanted)
    baseline, running = sampled.tallies[0], sampled.tallies[1:]
    exact = next((t.exact for t in running if isinstance(t, Lz4Tally)), None)
    budget = Budget(deadline, wanted)
    for ordinal in sampling.visiting_order(found.blocks, wanted, seed):
        budget.cut([*running, *([exact] if exact and exact.wanted else [])])
        running = [t for t in running if not t.cut]
        if not running and len(sampled.tallies) > 1:
            break  # every algorithm used its share (off, the baseline, is no reason to go on)
        file, index = found.locate(ordinal)
        try:
            data = read_block(file, index)
        except OSError:
            continue  # the file went away since the listing
        for tally in [baseline, *running]:
            holes = zero_is_hole(tally.algorithm, inp.kind)
            tally.add(data, ordinal, sector_size=inp.sector_size, zero_is_hole=holes)
            tick(sampled.blocks / max(1, wanted), f"Compressing sampled blocks ({tally.algorithm})")
        sampled.blocks += 1
        sampled.size += len(data)
    return sampled

"""Which blocks to sample: spread over the input, visited so that any prefix is spread too."""

from __future__ import annotations

import random

# Strata are visited in PASSES interleaved rounds (0, 8, 4, 12, ... of 16): stopping early,
# on the time budget, still leaves a sample spread over the whole input.
PASSES = 16
PASS_BITS = 4


def sample_count(blocks: int, logical: int, sample_bytes: int) -> int:
    """How many blocks `sample_bytes` buys at the input's mean block size (at least one)."""
    if blocks == 0:
        return 0
    mean = max(1, logical // blocks)
    return max(1, min(blocks, -(-sample_bytes // mean)))


def positions(blocks: int, count: int, seed: int = 0) -> list[int]:
    """`count` block ordinals, one at random in each of `count` equal strata."""
    rng = random.Random(seed)  # noqa: S311  (a sample, not a secret)
    picked = []
    for stratum in range(count):
        low, high = stratum * blocks // count, (stratum + 1) * blocks // count
        picked.append(rng.randrange(low, high))
    return picked


def visiting_order(picked: list[int]) -> list[int]:
    """The ordinals in interleaved passes, each pass in reading order."""
    return [
        ordinal
        for stratum, ordinal in sorted(enumerate(picked), key=lambda pair: _pass_key(pair[0]))
    ]


def _pass_key(stratum: int) -> tuple[int, int]:
    """(pass, stratum): the pass is the stratum's low bits reversed (van der Corput order)."""
    low = stratum % PASSES
    reversed_bits = int(f"{low:0{PASS_BITS}b}"[::-1], 2)
    return reversed_bits, stratum

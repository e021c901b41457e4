"""Which blocks to sample, and in what order: any prefix of the order is a uniform sample.

Each block visited is a point drawn uniformly over the input, and the points are stratified at
every power of two: the first 2, 4, 8... fall one in each half, quarter, eighth... of the input
(bit-reversed cells with a random digital shift, a random point in each cell). Stopping anywhere,
on the time budget or an algorithm's share of it, leaves every block about the same chance of
being in, and the blocks spread over the whole input, not its first part in reading order.
"""

from __future__ import annotations

import random

DEFAULT_SEED = 0x5A4D  # fixed: the same input gives the same sample, run after run


def sample_count(blocks: int, logical: int, sample_bytes: int) -> int:
    """How many blocks `sample_bytes` buys at the input's mean block size (at least one)."""
    if blocks == 0:
        return 0
    mean = max(1, logical // blocks)
    return max(1, min(blocks, -(-sample_bytes // mean)))


def visiting_order(blocks: int, count: int, seed: int = DEFAULT_SEED) -> list[int]:
    """`count` distinct block ordinals of `blocks`, in the order they are visited."""
    if count <= 0:
        return []
    rng = random.Random(seed)  # noqa: S311  (a sample, not a secret)
    bits = max(1, (count - 1).bit_length())
    shift = rng.getrandbits(bits)
    picked: dict[int, None] = {}
    for index in range(1 << bits):
        # A point uniform in its cell of [0, 1): the cells, taken in shuffled bit-reversed
        # order, split every prefix of 2^k points one to each 2^-k of the input.
        point = ((_reversed(index, bits) ^ shift) + rng.random()) / (1 << bits)
        picked.setdefault(min(blocks - 1, int(point * blocks)))
        if len(picked) == count:
            return list(picked)
    return list(picked) + _more(blocks, count - len(picked), picked, rng)


def _more(blocks: int, wanted: int, picked: dict[int, None], rng: random.Random) -> list[int]:
    """`wanted` more blocks at random among those not picked (points may share a block)."""
    if 2 * (len(picked) + wanted) <= blocks:  # few: draw until new ones come
        more: dict[int, None] = {}
        while len(more) < wanted:
            block = rng.randrange(blocks)
            if block not in picked:
                more.setdefault(block)
        return list(more)
    return rng.sample([block for block in range(blocks) if block not in picked], wanted)


def _reversed(value: int, bits: int) -> int:
    """`value`'s low `bits` bits in reverse order."""
    return int(f"{value:0{bits}b}"[::-1], 2)

"""Hash-space sampling: bounded, scaled up, ratio weighted by allocation; and the verdict."""

from __future__ import annotations

import random

import pytest

from advisor.estimates.engine.dedup import HashSample, verdict
from advisor.estimates.engine.stats import RatioSums

GIB = 1 << 30


def feed(sample: HashSample, distinct: int, copies: int, seed: int = 1) -> None:
    """`distinct` random 64-bit hashes, each offered `copies` times, shuffled, 4 KiB each."""
    rng = random.Random(seed)
    keys = [rng.getrandbits(64) for _ in range(distinct)] * copies
    rng.shuffle(keys)
    for key in keys:
        sample.add(key, lambda: 4096)


def test_everything_is_kept_below_the_cap_and_the_answer_is_exact() -> None:
    sample = HashSample(cap=1000)
    feed(sample, distinct=500, copies=3)
    assert (sample.fraction, sample.unique_blocks(), sample.ratio()) == (1.0, 500, 3.0)
    assert sample.blocks == 1500


def test_the_kept_set_never_passes_the_cap_and_scales_up_within_its_error() -> None:
    sample = HashSample(cap=2048)
    feed(sample, distinct=50_000, copies=4)
    assert len(sample.kept) <= 2048
    assert sample.fraction < 1 / 16
    # ~1,000-2,000 kept hashes: the unique count is good to a few percent (3 sigma < 10%)
    assert sample.unique_blocks() == pytest.approx(50_000, rel=0.10)
    assert sample.ratio() == 4.0  # every kept hash was seen 4 times


def test_the_ratio_is_weighted_by_allocated_size_like_zdb() -> None:
    sample = HashSample()
    sample.add(1, lambda: 4096)
    for _ in range(3):
        sample.add(2, lambda: 131072)  # only called the first time
    # (4096 + 3 * 131072) / (4096 + 131072)
    assert sample.ratio() == pytest.approx(397312 / 135168)
    assert sample.allocated_bytes() == 397312


def test_the_size_is_computed_once_per_kept_hash_only() -> None:
    calls: list[int] = []

    def measured() -> int:
        calls.append(1)
        return 4096

    sample = HashSample(cap=4)
    for key in range(64):
        sample.add(key, measured)
    assert len(calls) < 64  # keys outside the kept share are never measured
    assert len(sample.kept) <= 4


@pytest.mark.parametrize(
    ("ratio", "ddt", "expected"),
    [
        (3.0, 100 << 20, "worth"),  # saves a lot, 100 MiB of an 8 GiB ARC
        (1.3, 100 << 20, "costly"),  # a small saving
        (3.0, 3 * GIB, "costly"),  # 37% of the ARC
        (3.0, 7 * GIB, "trap"),  # past the ARC's 75% for metadata
        (1.02, 1 << 20, "trap"),  # no repeats at all
    ],
)
def test_the_verdict_follows_the_deciding_numbers(ratio: float, ddt: int, expected: str) -> None:
    judged = verdict(ratio=ratio, ddt_bytes=ddt, arc_max=8 * GIB, saved_bytes=GIB)
    assert judged.verdict == expected
    assert f"{ratio:.2f}x" in judged.reason
    assert "8.0 GiB" in judged.reason


def test_a_ratio_of_sums_has_a_delta_method_interval() -> None:
    sums = RatioSums()
    for y, x in [(10, 5), (12, 4), (8, 4), (10, 5)]:
        sums.add(y, x)
    low, high = sums.interval()
    assert sums.ratio() == 40 / 18
    assert low < sums.ratio() < high
    assert sums.interval(population=4) == (sums.ratio(), sums.ratio())  # the whole population

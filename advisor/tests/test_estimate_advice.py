"""What the estimate says to choose, and what it says when the time budget cut it short."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from advisor.estimates.engine import compression
from advisor.estimates.engine.advice import LINK_MB_S, advise
from advisor.estimates.engine.sampler import MIN_SAMPLE
from advisor.tests.test_estimate_run import run

RECORD = 128 * 1024
MIB = 1 << 20
WORDS = [b"pool", b"scrub", b"disk", b"error", b"online", b"resilver", b"ok", b"snapshot"]


def text(size: int, seed: int = 2) -> bytes:
    """Log-like words: compressible, about the same in every block."""
    rng = random.Random(seed)
    return b" ".join(rng.choice(WORDS) for _ in range(size // 4))[:size]


def row(algorithm: str, ratio: float, saved: int, speed: float) -> dict[str, Any]:
    """A compression row as the estimate reports it (stored_bytes: of 1000 MB)."""
    return {"algorithm": algorithm, "ratio": ratio, "saved_bytes": saved,
            "stored_bytes": 1_000_000_000 - saved, "compress_mb_s": speed}  # fmt: skip


OFF = row("off", 1.0, 0, 0.0)
DEDUP = {"verdict": "trap", "reason": "A trap: dedup ratio 1.00x saves 0 B; ..."}


def test_a_budget_cut_short_says_so_per_algorithm_and_never_complete(tmp_path: Path) -> None:
    (tmp_path / "log").write_bytes(text(4 * MIB))
    seen: list[str] = []
    result = run(tmp_path, time_budget=0.0, progress=lambda _p, message: seen.append(message))
    rows = result["compression"]  # off, the baseline, stops with the last algorithm
    assert {(r["blocks"], r["complete"]) for r in rows} == {(MIN_SAMPLE, False)}
    sample = result["sample"]
    assert not sample["complete"]
    names = ("off", "lz4", "gzip-6", "zstd-3")
    assert sample["cut_short"] == dict.fromkeys(names, MIN_SAMPLE)
    assert f"lz4 {MIN_SAMPLE}" in sample["note"]
    assert "intervals are wider" in sample["note"]
    assert seen[-1].startswith("Estimate done on a sample cut short by the time budget")
    assert "lz4 8, gzip-6 8, zstd-3 8" in seen[-1]


def test_a_whole_sample_is_complete_for_every_algorithm(tmp_path: Path) -> None:
    (tmp_path / "log").write_bytes(text(2 * MIB))
    seen: list[str] = []
    result = run(tmp_path, progress=lambda _p, message: seen.append(message))
    assert {(r["blocks"], r["complete"]) for r in result["compression"]} == {(16, True)}
    assert result["sample"]["cut_short"] == {}
    assert seen[-1] == "Estimate done on the whole sample"


def test_lz4_past_its_exact_share_is_liblz4_times_the_measured_factor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "log").write_bytes(text(4 * MIB))
    exact = run(tmp_path, algorithms=("lz4",))["compression"][1]
    monkeypatch.setattr(compression, "EXACT_LZ4_BYTES", 4 * RECORD)
    scaled = run(tmp_path, algorithms=("lz4",))["compression"][1]
    assert (exact["exact_blocks"], scaled["exact_blocks"], scaled["blocks"]) == (32, 4, 32)
    assert scaled["ratio"] == pytest.approx(exact["ratio"], rel=0.015)
    assert scaled["ratio_low"] <= exact["ratio"] <= scaled["ratio_high"]


def test_text_gets_the_best_saving_that_keeps_up_with_the_link(tmp_path: Path) -> None:
    (tmp_path / "log").write_bytes(text(2 * MIB))
    result = run(tmp_path)
    advice = result["advice"]
    rows = {r["algorithm"]: r for r in result["compression"]}
    chosen = rows[advice["algorithm"]]
    assert chosen["compress_mb_s"] * advice["cores"] >= LINK_MB_S
    assert advice["reason"].startswith(f"Use {advice['algorithm']}: it saves")
    assert f"{chosen['compress_mb_s']:.0f} MB/s on one core" in advice["reason"]
    assert advice["dedup_verdict"] == result["dedup"]["verdict"]
    assert advice["dedup"] == result["dedup"]["reason"]


def test_random_data_keeps_lz4_and_says_it_hardly_compresses(tmp_path: Path) -> None:
    (tmp_path / "noise").write_bytes(os.urandom(2 * MIB))
    advice = run(tmp_path)["advice"]
    assert advice["algorithm"] == "lz4"
    assert "hardly compresses" in advice["reason"]


def test_a_stronger_level_is_named_when_it_saves_enough_more() -> None:
    rows = [OFF, row("lz4", 1.5, 330_000_000, 400), row("zstd-19", 2.2, 545_000_000, 5)]
    advice = advise(rows, DEDUP, cores=2)
    assert advice["algorithm"] == "lz4"  # zstd-19 at 10 MB/s on two cores cannot keep up
    assert advice["stronger"].startswith("A stronger level is worth it")
    assert "zstd-19 would save 21.5% more" in advice["stronger"]
    assert advice["dedup_verdict"] == "trap"


def test_a_stronger_level_saving_little_more_is_not_worth_it() -> None:
    rows = [OFF, row("lz4", 1.5, 330_000_000, 400), row("gzip-9", 1.55, 350_000_000, 20)]
    stronger = advise(rows, None, cores=4)["stronger"]
    assert stronger.startswith("A stronger level is not worth it: gzip-9 would save 2.0% more")


def test_on_a_slow_machine_the_fastest_is_chosen_and_the_wait_is_said() -> None:
    rows = [OFF, row("lz4", 1.5, 330_000_000, 40), row("gzip-6", 1.9, 470_000_000, 9)]
    advice = advise(rows, None, cores=1)
    assert advice["algorithm"] == "lz4"
    assert "writes over the network will wait on the CPU" in advice["reason"]


def test_near_ties_go_to_the_faster_algorithm() -> None:
    rows = [OFF, row("zstd-3", 2.0, 500_000_000, 150), row("zstd-1", 2.0, 498_000_000, 300)]
    assert advise(rows, None, cores=2)["algorithm"] == "zstd-1"

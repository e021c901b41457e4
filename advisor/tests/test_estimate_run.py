"""The whole estimate on generated data with known answers: shape, ratios, budget, cancelling."""

from __future__ import annotations

import json
import math
import os
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from advisor.estimates.engine import hashpass
from advisor.estimates.engine.compression import CODEC_MARGIN, Tally, outward
from advisor.estimates.engine.run import estimate
from advisor.estimates.engine.sources import Input

K = 1024
RECORD = 128 * K
MIB = 1 << 20
SHAPE = {
    "input": {"kind", "name", "path", "bytes", "files", "blocks", "block_size", "sector_size"},
    "sample": {"blocks", "bytes", "seconds", "complete", "note", "wanted_blocks", "cut_short"},
    "advice": {"algorithm", "reason", "stronger", "dedup", "dedup_verdict", "cores"},
    "dedup": {"ratio", "unique_blocks", "blocks", "fraction", "kept_hashes", "compression",
              "ddt_bytes", "core_bytes_per_entry", "per_entry_source", "ram_total", "arc_max",
              "verdict", "reason", "complete", "read_mb_s"},
}  # fmt: skip
ROW = {"algorithm", "ratio", "ratio_low", "ratio_high", "stored_bytes", "saved_bytes", "blocks",
       "complete",
       "compress_mb_s", "compress_mb_s_low", "compress_mb_s_high", "decompress_mb_s",
       "decompress_mb_s_low", "decompress_mb_s_high"}  # fmt: skip


class Cancelled(Exception):
    """What a job's progress callback raises when the user cancels."""


def run(path: Path, kind: str = "path", block_size: int = RECORD, **options: Any) -> dict[str, Any]:
    """The estimate with test defaults: 8 GiB of RAM, the rule's bytes per DDT entry."""
    settings: dict[str, Any] = {
        "sample_bytes": 64 * MIB,
        "time_budget": 60.0,
        "algorithms": ("lz4", "gzip-6", "zstd-3"),
        "ram_total": 8 << 30,
        "arc_max": None,
        "core_bytes_per_entry": None,
    }
    settings.update(options)
    return estimate(Input(kind, path.name, path, block_size), **settings)


def repeated_blocks(path: Path, distinct: int, copies: int, size: int = RECORD) -> None:
    """`distinct` random blocks, each written `copies` times, shuffled."""
    rng = random.Random(5)
    blocks = [rng.randbytes(size) for _ in range(distinct)] * copies
    rng.shuffle(blocks)
    path.write_bytes(b"".join(blocks))


def test_the_result_has_the_agreed_shape_and_is_json(tmp_path: Path) -> None:
    (tmp_path / "data").write_bytes(os.urandom(MIB))
    result = run(tmp_path)
    assert json.loads(json.dumps(result)) == result
    for section, keys in SHAPE.items():
        assert not keys - set(result[section]), section
    assert all(not ROW - set(row) for row in result["compression"])
    assert [row["algorithm"] for row in result["compression"]] == ["off", "lz4", "gzip-6", "zstd-3"]


def test_random_data_does_not_compress_nor_dedup(tmp_path: Path) -> None:
    (tmp_path / "noise").write_bytes(os.urandom(4 * MIB))
    result = run(tmp_path)
    assert {row["ratio"] for row in result["compression"]} == {1.0}
    assert {row["saved_bytes"] for row in result["compression"]} == {0}
    dedup = result["dedup"]
    assert (dedup["ratio"], dedup["unique_blocks"], dedup["verdict"]) == (1.0, 32, "trap")
    assert result["input"]["bytes"] == 4 * MIB
    assert result["sample"]["complete"]
    assert dedup["complete"]


def test_a_repeated_pattern_is_capped_by_the_sector(tmp_path: Path) -> None:
    pattern = random.Random(3).randbytes(256) * 16
    (tmp_path / "pattern").write_bytes(pattern * 32 * 8)
    rows = run(tmp_path, sample_bytes=2 * RECORD)["compression"]
    assert [row["ratio"] for row in rows] == [1.0, 32.0, 32.0, 32.0]
    assert rows[1]["stored_bytes"] == 8 * 4096
    assert rows[1]["saved_bytes"] == 8 * RECORD - 8 * 4096


def test_zle_is_sized_without_speeds(tmp_path: Path) -> None:
    (tmp_path / "sparse").write_bytes((b"z" * 1000 + bytes(7192)) * 64)
    zle = run(tmp_path, algorithms=("zle",))["compression"][1]
    # per 128K record: 16 x (1000 literals + 16 length bytes + 38 zero-run bytes) = 16.9 KiB,
    # so 5 sectors
    assert zle["ratio"] == 131072 / (5 * 4096)
    assert zle["compress_mb_s"] == 0.0


def test_text_projects_its_space_from_a_sample(tmp_path: Path) -> None:
    rng = random.Random(2)
    words = [b"pool", b"scrub", b"disk", b"error", b"online", b"resilver", b"ok"]
    text = b" ".join(rng.choice(words) for _ in range(2 * MIB // 4))[: 2 * MIB]
    (tmp_path / "log").write_bytes(text)
    result = run(tmp_path, sample_bytes=4 * RECORD)
    lz4 = result["compression"][1]
    assert result["sample"]["blocks"] == 4
    assert lz4["ratio_low"] <= lz4["ratio"] <= lz4["ratio_high"]
    assert lz4["ratio"] > 2
    assert lz4["stored_bytes"] == pytest.approx(2 * MIB / lz4["ratio"], rel=0.01)
    assert lz4["compress_mb_s_low"] <= lz4["compress_mb_s"] <= lz4["compress_mb_s_high"]
    assert lz4["decompress_mb_s"] > 0


def test_blocks_repeated_k_times_give_ratio_k_and_the_unique_count(tmp_path: Path) -> None:
    repeated_blocks(tmp_path / "dup", distinct=40, copies=3)
    dedup = run(tmp_path, sample_bytes=RECORD)["dedup"]
    assert (dedup["ratio"], dedup["unique_blocks"], dedup["blocks"]) == (3.0, 40, 120)
    assert dedup["ddt_bytes"] == 40 * 320
    assert dedup["verdict"] == "worth"


def test_past_the_hash_cap_the_figures_are_scaled_within_the_sampling_error(
    tmp_path: Path,
) -> None:
    repeated_blocks(tmp_path / "dup", distinct=4000, copies=2, size=4096)
    dedup = run(tmp_path, "zvol", 4096, sample_bytes=4096, hash_cap=512)["dedup"]
    assert dedup["kept_hashes"] <= 512
    assert dedup["fraction"] <= 1 / 8
    # 250-512 kept hashes: 3 standard errors of the count stay under ~20%
    assert dedup["unique_blocks"] == pytest.approx(4000, rel=0.2)
    assert dedup["ratio"] == 2.0


def test_zero_blocks_of_a_zvol_are_holes(tmp_path: Path) -> None:
    (tmp_path / "vol").write_bytes(os.urandom(16 * K) + bytes(48 * K))
    result = run(tmp_path / "vol", "zvol", 16 * K)
    assert result["dedup"]["blocks"] == 1
    assert result["input"]["blocks"] == 4


def test_the_time_budget_marks_the_dedup_pass_incomplete(tmp_path: Path) -> None:
    repeated_blocks(tmp_path / "dup", distinct=48, copies=2)  # 12 MiB: three chunks
    result = run(tmp_path, time_budget=0.0, sample_bytes=RECORD)
    dedup = result["dedup"]
    assert not dedup["complete"]
    assert not result["sample"]["complete"]
    assert "time budget" in result["sample"]["note"]
    assert dedup["blocks"] == 96  # scaled up to the whole input


def test_a_raising_progress_callback_stops_the_run_and_its_reader(tmp_path: Path) -> None:
    repeated_blocks(tmp_path / "dup", distinct=64, copies=2)
    seen: list[int] = []

    def cancel_in_dedup(percent: int, message: str) -> None:
        seen.append(percent)
        if message.startswith("Hashing"):
            raise Cancelled

    threads = threading.active_count()
    with pytest.raises(Cancelled):
        run(tmp_path, sample_bytes=RECORD, progress=cancel_in_dedup)
    assert threading.active_count() == threads
    assert seen[0] == 0
    assert max(seen) < 100


def test_progress_ends_at_100(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(os.urandom(RECORD))
    seen: list[tuple[int, str]] = []
    run(tmp_path, progress=lambda percent, message: seen.append((percent, message)))
    assert seen[-1][0] == 100
    assert [p for p, _ in seen] == sorted(p for p, _ in seen)


@pytest.mark.parametrize("name", sorted(hashpass.HASHES))
def test_every_candidate_hash_finds_the_same_duplicates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    repeated_blocks(tmp_path / "dup", distinct=20, copies=3)
    monkeypatch.setattr(hashpass, "fastest_hash", lambda: name)
    dedup = run(tmp_path, sample_bytes=RECORD)["dedup"]
    assert (dedup["ratio"], dedup["unique_blocks"], dedup["hash"]) == (3.0, 20, name)


def test_interval_bounds_are_rounded_outward() -> None:
    """A stated interval always holds the computed one: a value on its edge stays inside."""
    low, high = 1.3578642, 1.3626001
    assert outward(low, math.floor) == 1.3578 <= low
    assert outward(high, math.ceil) == 1.3627 >= high


def test_a_full_sample_still_states_the_codec_margin() -> None:
    # Every block measured leaves no sampling spread, but the libraries are not the kernel's:
    # the VM lane saw ZFS store 1.3579 where a 696-of-1084-block interval ended at 1.3574.
    tally = Tally("zstd-1")
    for ordinal in range(8):
        tally.add(bytes(range(256)) * 512, ordinal, sector_size=4096, zero_is_hole=True)
    low, high = tally.interval(8)
    ratio = tally.ratio.ratio()
    assert low == pytest.approx(ratio * (1 - CODEC_MARGIN))
    assert high == pytest.approx(ratio * (1 + CODEC_MARGIN))
    off = Tally("off")
    off.add(bytes(range(256)) * 512, 0, sector_size=4096, zero_is_hole=True)
    off.add(bytes(range(256)) * 512, 1, sector_size=4096, zero_is_hole=True)
    assert off.interval(2) == (1.0, 1.0)

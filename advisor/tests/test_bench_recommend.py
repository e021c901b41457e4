"""The recommendation: the best saving among fast-enough settings; dedup only when it pays."""

from __future__ import annotations

from typing import Any

from advisor.benchmarks.engine.recommend import recommend
from advisor.benchmarks.engine.settings import CATALOGUE

MIB = 1024 * 1024


def row(setting: str, used_mib: float, write: float) -> dict[str, Any]:
    spec = CATALOGUE[setting]
    return {
        "setting": setting,
        "label": spec.label,
        "properties": dict(spec.properties),
        "used_bytes": int(used_mib * MIB),
        "write_mb_s": write,
    }


def test_the_best_saving_within_the_allowed_slowdown_wins():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("zstd", 50, 170), row("gzip-6", 45, 60)]
    pick = recommend(rows)
    assert pick.setting == "zstd"
    assert "saved 50%" in pick.reason
    assert "85% of its speed" in pick.reason


def test_a_slow_setting_is_not_recommended_even_if_smallest():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("gzip-6", 40, 50)]
    assert recommend(rows).setting == "lz4"


def test_data_that_hardly_compresses_gets_lz4_for_free():
    rows = [row("off", 100, 200), row("lz4", 99, 198), row("zstd", 98, 190)]
    pick = recommend(rows)
    assert pick.setting == "lz4"
    assert "hardly compresses" in pick.reason


def test_without_lz4_incompressible_data_stays_uncompressed():
    rows = [row("off", 100, 200), row("gzip-6", 99, 40)]
    assert recommend(rows).setting == "off"


def test_dedup_is_not_recommended_for_a_small_extra_saving():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("dedup", 50, 150)]
    assert recommend(rows).setting == "lz4"


def test_dedup_is_recommended_when_it_halves_the_space_and_writes_fast_enough():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("dedup", 20, 120)]
    pick = recommend(rows)
    assert pick.setting == "dedup"
    assert "67% less space than LZ4" in pick.reason
    assert "RAM" in pick.reason


def test_a_slow_dedup_is_not_recommended_whatever_it_saves():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("dedup", 10, 50)]
    assert recommend(rows).setting == "lz4"


def test_without_an_off_row_the_largest_row_is_the_baseline():
    rows = [row("lz4", 60, 195), row("zstd", 50, 190)]
    pick = recommend(rows)
    assert pick.setting == "zstd"
    assert "LZ4 takes" in pick.reason


def test_no_rows_no_recommendation():
    assert recommend([]).as_dict() == {"setting": "", "reason": "No setting was measured."}

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


def test_when_every_saving_setting_writes_too_slowly_it_says_so():
    rows = [row("off", 100, 200), row("lz4", 70, 120), row("gzip-6", 50, 40)]
    pick = recommend(rows)
    assert pick.setting == "off"
    assert "hardly compresses" not in pick.reason
    assert pick.reason.startswith("LZ4 saved 30% of the space no compression takes")
    assert "wrote at 60% of its speed on this machine (120 against 200 MB/s)" in pick.reason
    assert "every setting that saves space wrote more than 25% slower" in pick.reason
    assert pick.stronger.startswith("A stronger level pays where space matters more")


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
    assert recommend([]).as_dict() == {
        "setting": "",
        "reason": "No setting was measured.",
        "label": "",
        "stronger": "",
        "dedup_verdict": "",
        "dedup": "",
        "speed_note": "",
    }


# -- with a compressing engine: space against write speed on this machine ---------------------
def test_the_pick_is_named_and_its_numbers_cited():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("zstd", 50, 170)]
    pick = recommend(rows)
    assert (pick.setting, pick.label) == ("zstd", "ZSTD (level 3)")
    assert pick.reason.startswith("ZSTD (level 3) saved 50% of the space no compression takes")
    assert "(50.0 MiB instead of 100.0 MiB)" in pick.reason
    assert "(170 against 200 MB/s)" in pick.reason
    assert pick.speed_note == ""


def test_a_stronger_level_that_saves_much_more_pays_only_where_space_beats_speed():
    rows = [row("off", 100, 200), row("zstd", 50, 170), row("gzip-6", 38, 60)]
    stronger = recommend(rows).stronger
    assert stronger.startswith("A stronger level pays where space matters more than write speed")
    assert "GZIP level 6 saves a further 12%" in stronger
    assert "(38.0 MiB against 50.0 MiB)" in stronger
    assert "60 MB/s, 30% of the speed of no compression" in stronger


def test_a_stronger_level_that_saves_little_is_not_worth_it():
    rows = [row("off", 100, 200), row("zstd", 50, 170), row("gzip-6", 48, 60)]
    stronger = recommend(rows).stronger
    assert stronger.startswith("A stronger level is not worth it: GZIP level 6 saves only")
    assert "a further 2%" in stronger


def test_when_nothing_stronger_saved_more_it_says_so():
    rows = [row("off", 100, 200), row("zstd", 50, 170), row("gzip-6", 50, 60)]
    assert "none of those tried (GZIP level 6)" in recommend(rows).stronger
    assert recommend([row("off", 100, 200), row("lz4", 60, 195)]).stronger == ""


def test_dedup_that_adds_little_is_a_trap():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("dedup", 57, 150)]
    pick = recommend(rows)
    assert pick.setting == "lz4"
    assert pick.dedup_verdict == "a trap"
    assert "took 5% less space than LZ4 alone (57.0 MiB against 60.0 MiB)" in pick.dedup
    assert "320 bytes of RAM per unique block (2.5 GiB per TiB" in pick.dedup
    assert "Leave it off." in pick.dedup


def test_dedup_in_between_or_slow_is_costly():
    middle = recommend([row("off", 100, 200), row("lz4", 60, 195), row("dedup", 40, 150)])
    assert (middle.setting, middle.dedup_verdict) == ("lz4", "costly")
    assert "33% less space" in middle.dedup
    assert "saving less than 50% does not pay" in middle.dedup
    slow = recommend([row("off", 100, 200), row("lz4", 60, 195), row("dedup", 10, 50)])
    assert slow.dedup_verdict == "costly"
    assert "it writes at only 25% of the speed of no compression" in slow.dedup


def test_a_small_sample_warns_that_dedup_misses_duplicates_far_apart():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("dedup", 59, 150)]
    assert "estimate" not in recommend(rows).dedup
    dedup = recommend(rows, sample_share=0.1).dedup
    assert "Only 10% of the source was copied" in dedup
    assert "the estimate, which hashes every block, judges dedup better" in dedup


# -- on the sandbox: writes are not compressed, so the speeds are left out ---------------------
SANDBOX = [
    # as the sandbox measures them: every setting writes at about the same speed
    row("off", 100, 400),
    row("lz4", 60, 410),
    row("gzip-6", 48, 395),
    row("gzip-1", 52, 405),
    row("zstd", 50, 398),
    row("dedup", 58, 380),
]


def _texts(pick: Any) -> str:
    return " ".join((pick.reason, pick.stronger, pick.dedup))


def test_on_the_sandbox_no_speed_is_cited_and_the_note_says_why():
    pick = recommend(SANDBOX, speeds=False)
    assert "MB/s" not in _texts(pick)
    assert "speed" not in _texts(pick)
    assert pick.speed_note.startswith("Speeds are not used: this sandbox does not compress")
    assert "say nothing about the settings" in pick.speed_note


def test_on_the_sandbox_the_lightest_of_the_near_smallest_is_picked():
    pick = recommend(SANDBOX, speeds=False)
    assert (pick.setting, pick.label) == ("zstd", "ZSTD (level 3)")
    assert pick.reason.startswith(
        "ZSTD (level 3) saved 50% of the space no compression takes (50.0 MiB instead of 100.0 MiB)"
    )
    assert "GZIP level 6 saved 52%, within 5% of it, for more CPU per byte" in pick.reason
    assert "Lighter settings saved less: LZ4 40% (60.0 MiB)." in pick.reason
    assert pick.stronger.startswith("A stronger level is not worth it: GZIP level 6 saves only")
    assert pick.dedup_verdict == "a trap"


def test_on_the_sandbox_a_slow_write_does_not_rule_a_setting_out():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("gzip-6", 40, 20)]
    assert recommend(rows).setting == "lz4"  # honest speeds: gzip-6 is too slow
    assert recommend(rows, speeds=False).setting == "gzip-6"  # space alone: it saves most


def test_on_the_sandbox_dedup_that_halves_the_space_is_worth_it_whatever_its_speed():
    rows = [row("off", 100, 200), row("lz4", 60, 195), row("dedup", 20, 10)]
    pick = recommend(rows, speeds=False)
    assert (pick.setting, pick.dedup_verdict) == ("dedup", "worth it")
    assert "67% less space than LZ4 alone (20.0 MiB against 60.0 MiB)" in pick.reason
    assert "writing" not in pick.reason

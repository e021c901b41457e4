"""The dedup RAM estimate's arithmetic and verdicts."""

from __future__ import annotations

from storage.zfs.dedup import RULE_CORE_BYTES_PER_ENTRY, estimate_dedup

GIB = 1024**3
TIB = 1024**4


def test_one_entry_per_block_at_the_rule_of_thumb():
    e = estimate_dedup(data_bytes=TIB, block_size=128 * 1024, ram_total=16 * GIB, arc_max=None)
    assert e.entries == 8 * 1024**2
    assert e.ram_bytes == e.entries * RULE_CORE_BYTES_PER_ENTRY
    assert e.per_entry_source == "rule"
    assert e.arc_max == 8 * GIB
    assert e.arc_max_source == "default"


def test_the_articles_20_tb_at_128k_case_needs_tens_of_gigabytes():
    e = estimate_dedup(data_bytes=20 * TIB, block_size=128 * 1024, ram_total=8 * GIB, arc_max=None)
    assert 45 * GIB < e.ram_bytes < 55 * GIB
    assert e.verdict == "trap"
    assert "spill to disk" in e.explanation


def test_a_pools_own_per_entry_size_is_preferred():
    e = estimate_dedup(
        data_bytes=GIB,
        block_size=4096,
        ram_total=8 * GIB,
        arc_max=4 * GIB,
        core_bytes_per_entry=155,
    )
    assert e.core_bytes_per_entry == 155
    assert e.per_entry_source == "pool"
    assert e.arc_max_source == "arcstats"


def test_verdicts_follow_the_share_of_the_arc():
    ok = estimate_dedup(data_bytes=GIB, block_size=128 * 1024, ram_total=8 * GIB, arc_max=4 * GIB)
    tight = estimate_dedup(data_bytes=20 * GIB, block_size=4096, ram_total=8 * GIB, arc_max=4 * GIB)
    assert ok.verdict == "ok"
    assert tight.verdict == "tight"
    assert 0.25 < tight.share_of_arc <= 0.75

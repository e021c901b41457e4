"""When a scan ended and how long it took, from real `zpool status` output."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from storage.zfs.parse import parse_scan, parse_zpool_status


def test_a_finished_scrub_has_its_end_and_duration(fixture_text: Callable[[str], str]) -> None:
    scan = parse_zpool_status(fixture_text("zpool_status_scrub_done.txt"))[0].scan
    assert scan.when_local == datetime(2026, 11, 23, 15, 49, 53)
    assert scan.duration == 7


def test_days_count_in_the_duration_and_single_digit_days_parse() -> None:
    scan = parse_scan(
        "scrub repaired 1.50M in 1 days 02:03:04 with 2 errors on Tue Nov  3 01:02:03 2026"
    )
    assert scan.duration == 93784
    assert scan.when_local == datetime(2026, 11, 3, 1, 2, 3)
    assert (scan.repaired, scan.errors) == (1572864, 2)


def test_a_running_scan_has_a_start_but_no_duration(fixture_text: Callable[[str], str]) -> None:
    scan = parse_zpool_status(fixture_text("zpool_status_scrub_started.txt"))[0].scan
    assert scan.state == "scanning"
    assert scan.duration is None
    assert scan.when_local is not None
    assert parse_scan("none requested").when_local is None

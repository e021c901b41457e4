"""Parsers of `zpool status` and `zpool import`, on captured output."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storage.zfs import parse
from storage.zfs.base import PoolStatus

Text = Callable[[str], str]


def _one(text: str) -> PoolStatus:
    pools = parse.parse_zpool_status(text)
    assert len(pools) == 1
    return pools[0]


def test_status_reads_raidz_with_log_cache_and_spare(fixture_text: Text) -> None:
    status = _one(fixture_text("zpool_status_tank.txt"))

    assert (status.name, status.state, status.errors) == ("tank", "ONLINE", "No known data errors")
    assert [v.type for v in status.vdevs] == ["raidz1"]
    assert [leaf.name for leaf in status.vdevs[0].leaves] == ["vda", "vdb", "vdc"]
    assert [(v.name, v.type, v.state) for v in status.logs] == [("vdd", "disk", "ONLINE")]
    assert [v.name for v in status.cache] == ["vde"]
    assert [(v.name, v.state) for v in status.spares] == [("vdf", "AVAIL")]
    assert status.scan.state == "none"
    assert status.root is not None
    assert status.root.type == "root"


@pytest.mark.parametrize(
    ("fixture", "types", "widths"),
    [
        ("zpool_status_fast.txt", ["mirror"], [2]),
        ("zpool_status_r10.txt", ["mirror", "mirror"], [2, 2]),
        ("zpool_status_rz2.txt", ["raidz2"], [4]),
        ("zpool_status_rz3.txt", ["raidz3"], [5]),
        ("zpool_status_str.txt", ["disk", "disk", "disk"], [0, 0, 0]),
    ],
)
def test_status_reads_each_layout(
    fixture_text: Text, fixture: str, types: list[str], widths: list[int]
) -> None:
    status = _one(fixture_text(fixture))

    assert [v.type for v in status.vdevs] == types
    assert [len(v.children) for v in status.vdevs] == widths
    assert all(leaf.state == "ONLINE" for v in status.vdevs for leaf in v.leaves)
    assert (status.logs, status.cache, status.spares) == ((), (), ())


def test_status_reads_several_pools(fixture_text: Text) -> None:
    pools = parse.parse_zpool_status(fixture_text("zpool_status_all.txt"))
    assert [p.name for p in pools] == ["r10", "rz2"]


def test_status_reads_a_degraded_mirror(fixture_text: Text) -> None:
    status = _one(fixture_text("zpool_status_degraded.txt"))

    assert status.state == "DEGRADED"
    assert status.vdevs[0].state == "DEGRADED"
    assert [(leaf.name, leaf.state) for leaf in status.vdevs[0].leaves] == [
        ("vdg", "ONLINE"),
        ("vdh", "OFFLINE"),
    ]
    assert status.status.startswith("One or more devices has been taken offline")
    assert "zpool online" in status.action


def test_status_reads_a_scrub_in_progress(fixture_text: Text) -> None:
    scan = _one(fixture_text("zpool_status_scrub_started.txt")).scan

    assert (scan.state, scan.function) == ("scanning", "scrub")
    assert scan.percent_done is not None
    assert 0 < scan.percent_done < 100
    # OpenZFS 2.1 can print more scanned than total ("33.3M scanned ... 33.2M total")
    assert (scan.scanned, scan.issued, scan.total) == tuple(
        parse.parse_size(size) for size in ("33.3M", "1.66M", "33.2M")
    )
    assert scan.when == "Mon Nov 23 15:49:46 2026"


def test_status_reads_a_finished_scrub(fixture_text: Text) -> None:
    scan = _one(fixture_text("zpool_status_scrub_done.txt")).scan
    assert (scan.state, scan.function, scan.errors, scan.repaired) == ("finished", "scrub", 0, 0)
    assert scan.percent_done == 100.0
    assert scan.when == "Mon Nov 23 15:49:53 2026"


def test_status_reads_a_canceled_scrub(fixture_text: Text) -> None:
    scan = _one(fixture_text("zpool_status_scrub_canceled.txt")).scan
    assert (scan.state, scan.percent_done) == ("canceled", None)
    assert scan.when == "Mon Nov 23 15:49:59 2026"


def test_scan_reads_resilver_and_errors() -> None:
    scan = parse.parse_scan("resilvered 1.50M in 00:00:02 with 3 errors on Sun Nov 22 2026")
    assert (scan.function, scan.state, scan.errors, scan.repaired) == (
        "resilver", "finished", 3, round(1.5 * (1 << 20)),
    )  # fmt: skip


def test_import_lists_exported_pools_with_their_trees(fixture_text: Text) -> None:
    pools = {p.name: p for p in parse.parse_zpool_import(fixture_text("zpool_import.txt"))}

    assert set(pools) == {"fast", "tank"}
    fast = pools["fast"]
    assert fast.guid.isdigit()
    assert fast.state == "ONLINE"
    assert "can be imported" in fast.action
    assert [v.type for v in fast.vdevs] == ["mirror"]
    assert [leaf.name for leaf in fast.vdevs[0].leaves] == ["vdg", "vdh"]
    assert [v.type for v in pools["tank"].vdevs] == ["raidz1"]


def test_import_of_nothing_is_empty(fixture_text: Text) -> None:
    assert parse.parse_zpool_import(fixture_text("zpool_import_none.txt")) == []


@pytest.mark.parametrize(
    ("name", "kind"),
    [("mirror-0", "mirror"), ("raidz1-0", "raidz1"), ("raidz-1", "raidz1"), ("raidz3-2", "raidz3"),
     ("spare-1", "spare"), ("replacing-0", "replacing"), ("draid2:4d:6c:1s-0", "draid"),
     ("vda", "disk"), ("/dev/disk/by-id/x", "disk"), ("/tmp/file.img", "file")],
)  # fmt: skip
def test_vdev_type_of_reads_zpool_names(name: str, kind: str) -> None:
    assert parse.vdev_type_of(name) == kind

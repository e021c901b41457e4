"""Parsers of `-H -p` listings, `zfs get`, versions, arcstats and lsblk, on captured output."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storage.zfs import parse
from storage.zfs.base import Dataset, Version
from storage.zfs.parse.lists import ENCRYPTION_COLUMNS

Text = Callable[[str], str]
READ_AT = 1_800_000_000.0
MIB = 1 << 20
SPACE = ("used", "referenced", "logicalreferenced", "refreservation", "reservation",
         "usedbydataset", "usedbychildren", "usedbysnapshots", "usedbyrefreservation")  # fmt: skip


def tank_datasets(fixture_text: Text) -> dict[str, Dataset]:
    """The captured `zfs list` of tank, by name."""
    captured = parse.DATASET_COLUMNS[: -len(ENCRYPTION_COLUMNS)]  # taken before those were listed
    text = fixture_text("zfs_list_tank.txt")
    datasets = parse.parse_zfs_list(text, read_at=READ_AT, columns=captured)
    return {d.name: d for d in datasets}


def test_zpool_list_reads_every_pool(fixture_text: Text) -> None:
    pools = {p.name: p for p in parse.parse_zpool_list(fixture_text("zpool_list.txt"))}

    assert set(pools) == {"fast", "tank"}
    tank = pools["tank"]
    assert tank.health == "ONLINE"
    assert tank.size == tank.allocated + tank.free
    assert tank.dedupratio == 3.0
    assert tank.fragmentation == 0
    assert tank.guid.isdigit()
    assert tank.altroot == ""
    assert (tank.ashift, pools["fast"].ashift, tank.sector_size) == (12, 12, 4096)


def test_zpool_list_without_an_ashift_column_or_with_ashift_0_has_none(fixture_text: Text) -> None:
    line = fixture_text("zpool_list.txt").splitlines()[0]
    fields = line.split("\t")
    without = parse.parse_zpool_list("\t".join(fields[:-1]), parse.POOL_COLUMNS[:-1])
    auto = parse.parse_zpool_list("\t".join([*fields[:-1], "0"]))
    assert (without[0].ashift, auto[0].ashift, auto[0].sector_size) == (None, None, None)


def test_zfs_list_used_is_the_sum_of_its_breakdown(fixture_text: Text) -> None:
    for dataset in tank_datasets(fixture_text).values():
        parts = (dataset.usedbydataset, dataset.usedbychildren, dataset.usedbysnapshots,
                 dataset.usedbyrefreservation)  # fmt: skip
        assert dataset.used == sum(parts), dataset.name
        assert dataset.figures_read_at == READ_AT


def test_zfs_list_space_figures_match_zfs_get(fixture_text: Text) -> None:
    got = parse.parse_zfs_get(fixture_text("zfs_get_space_tank.txt"))
    datasets = tank_datasets(fixture_text)

    assert set(got) == set(datasets)
    for name, dataset in datasets.items():
        for prop in SPACE:
            assert (getattr(dataset, prop) or 0) == int(got[name][prop].value), (name, prop)


def test_zfs_list_reads_snapshot_reservation_and_refreservation_use(fixture_text: Text) -> None:
    datasets = tank_datasets(fixture_text)
    random, zstd, tank = datasets["tank/random"], datasets["tank/zstd"], datasets["tank"]
    thick = datasets["tank/thick"]

    assert random.usedbysnapshots > 2 * MIB  # the 2 MiB rewritten after the snapshot
    # an unused reservation is charged to the parent, not to the dataset's own used
    assert zstd.reservation == 32 * MIB
    assert zstd.used < 4 * MIB
    others = sum(d.used for n, d in datasets.items() if n.count("/") == 1 and n != "tank/zstd")
    assert tank.usedbychildren >= others + 32 * MIB
    assert thick.refreservation is not None
    assert thick.usedbyrefreservation == thick.refreservation - thick.referenced
    assert thick.usedbydataset == thick.referenced


def test_zfs_list_reads_filesystems_and_volumes(fixture_text: Text) -> None:
    datasets = tank_datasets(fixture_text)

    assert set(datasets) == {
        "tank", "tank/dedup", "tank/random", "tank/text", "tank/thick", "tank/thin", "tank/zstd",
    }  # fmt: skip
    text = datasets["tank/text"]
    assert (text.type, text.compression, text.comment) == ("filesystem", "gzip-9", "text files")
    assert text.compressratio > 3.0
    assert text.logicalused > 3 * text.used
    assert text.logicalreferenced == text.logicalused  # no children
    assert text.logicalreferenced > 3 * text.referenced
    assert (text.recordsize, text.volsize, text.atime, text.quota) == (131072, None, False, None)
    assert text.pool == "tank"


def test_zfs_list_reads_thick_and_sparse_zvols(fixture_text: Text) -> None:
    datasets = tank_datasets(fixture_text)
    thick, thin = datasets["tank/thick"], datasets["tank/thin"]

    assert (thick.volsize, thick.volblocksize, thick.sparse) == (64 << 20, 16384, False)
    assert thick.refreservation is not None
    assert thick.refreservation > 64 << 20  # raidz parity overhead is reserved too
    assert (thin.volsize, thin.volblocksize, thin.sparse, thin.dedup) == (
        128 << 20,
        4096,
        True,
        "on",
    )
    assert thin.recordsize is None
    assert thin.atime is None
    assert thin.mountpoint is None


def test_zfs_list_reads_quota_and_random_data(fixture_text: Text) -> None:
    datasets = tank_datasets(fixture_text)

    assert datasets["tank/zstd"].quota == 512 << 20
    assert datasets["tank/zstd"].available < 512 << 20
    assert datasets["tank/random"].compressratio == 1.0
    assert datasets["tank"].atime is False


def test_zfs_list_rejects_a_column_mismatch() -> None:
    with pytest.raises(ValueError, match="columns"):
        parse.parse_zfs_list("tank\tfilesystem\n", read_at=READ_AT)


def test_zfs_get_keeps_values_and_sources(fixture_text: Text) -> None:
    props = parse.parse_zfs_get(fixture_text("zfs_get_text.txt"))["tank/text"]

    assert props["compression"].value == "gzip-9"
    assert props["compression"].source == "local"
    assert props["nasui:comment"].value == "text files"
    assert props["atime"].source == "inherited from tank"
    assert props["type"].value == "filesystem"


def test_zpool_get_reads_ashift_and_dedupratio(fixture_text: Text) -> None:
    props = parse.parse_zpool_get(fixture_text("zpool_get_tank.txt"))["tank"]
    assert props["ashift"] == "12"
    assert parse.parse_ratio(props["dedupratio"]) == 3.0


def test_version_reads_userland_and_kernel(fixture_text: Text) -> None:
    version = parse.parse_version(fixture_text("version.txt"))

    assert version == Version(userland="2.1.11-1+deb12u1", kernel="2.1.11-1+deb12u1")
    assert version.totals_in_ddt_stats is False
    assert parse.parse_version("zfs-2.3.1-1\nzfs-kmod-2.3.1-1\n").totals_in_ddt_stats is True


def test_arcstats_reads_named_and_raw_counters(fixture_text: Text) -> None:
    arc = parse.parse_arcstats(fixture_text("arcstats.txt"))

    assert arc.c_max > arc.c_min > 0
    assert arc.size > 0
    assert arc.hits > 0
    assert arc.hit_ratio is not None
    assert arc["demand_data_hits"] == arc.demand_data_hits
    assert len(arc.raw) > 100
    assert arc.l2_size > 0  # the captured pool has a cache device


def test_lsblk_reads_disks_partitions_and_zvols(fixture_text: Text) -> None:
    devices = {d.name: d for d in parse.parse_lsblk(fixture_text("lsblk.txt"))}

    vda = devices["vda"]
    assert (vda.path, vda.size, vda.serial, vda.type) == ("/dev/vda", 1 << 30, "NASUI0001", "disk")
    assert [c.fstype for c in vda.children] == ["zfs_member", ""]
    assert vda.in_use is True
    assert devices["zd0"].serial == ""


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("648B", 648), ("4M", 4 << 20), ("4.66M", round(4.66 * (1 << 20))),
     ("1.88K", round(1.88 * 1024)), ("-", 0), ("2T", 2 << 40)],
)  # fmt: skip
def test_parse_size_reads_exact_and_nice_numbers(text: str, value: int) -> None:
    assert parse.parse_size(text) == value


def test_parse_size_rejects_garbage() -> None:
    with pytest.raises(ValueError, match="not a size"):
        parse.parse_size("12Q")

"""The benchmark's plain parts: the catalogue, sampling, copying, reading back, load, names."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.benchmarks.engine import copying, load, reading, scratch
from advisor.benchmarks.engine import settings as catalogue

KIB = 1024


def test_the_default_settings_are_the_issues_in_its_order():
    assert catalogue.DEFAULT == ("off", "lz4", "gzip-6", "gzip-1", "zstd", "dedup")
    assert set(catalogue.DEFAULT) <= set(catalogue.CATALOGUE)


def test_every_setting_sets_compression_and_dedup_so_nothing_is_inherited():
    for setting in catalogue.CATALOGUE.values():
        assert set(setting.properties) == {"compression", "dedup"}


def test_the_dedup_row_says_which_compression_it_uses():
    dedup = catalogue.CATALOGUE["dedup"]
    assert dedup.properties == {"compression": "lz4", "dedup": "on"}
    assert "LZ4" in dedup.label
    assert dedup.dedup
    assert not catalogue.CATALOGUE["lz4"].dedup


def test_unknown_settings_are_named():
    assert catalogue.unknown_keys(["lz4", "brotli"]) == ["brotli"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    (root / "b").mkdir(parents=True)
    (root / "a.bin").write_bytes(b"a" * 3000)
    (root / "b" / "c.bin").write_bytes(b"c" * 5000)
    (root / "empty").write_bytes(b"")
    (root / "link").symlink_to(root / "a.bin")
    return root


def test_links_and_empty_files_are_not_sampled(tree):
    assert [p.relative for p in copying.plan_sample(tree, 10**6)] == ["a.bin", "b/c.bin"]


def test_the_copy_writes_each_files_pieces_into_one_file_and_times_it(tree, tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    (tree / "d.bin").write_bytes(bytes(range(10)) * 100)
    pieces = [
        copying.Piece(tree / "a.bin", 3000, "a.bin"),
        copying.Piece(tree / "d.bin", 20, "d.bin", offset=0),
        copying.Piece(tree / "d.bin", 15, "d.bin", offset=505),
    ]
    seen: list[int] = []
    result = copying.copy_sample(pieces, target, seen.append, chunk=512)
    assert (result.bytes, result.files) == (3035, 2)
    assert result.seconds > 0
    assert (target / "a.bin").read_bytes() == b"a" * 3000
    data = (tree / "d.bin").read_bytes()
    assert (target / "d.bin").read_bytes() == data[:20] + data[505:520]
    assert seen[-1] == 3035
    assert seen == sorted(seen)


def test_warming_reads_the_whole_sample(tree):
    assert copying.warm_sample(copying.plan_sample(tree, 10**6)) == 8000
    assert copying.warm_sample([copying.Piece(tree / "b" / "c.bin", 100, "c", offset=4950)]) == 50


def test_reading_back_reads_every_byte_after_dropping_the_page_cache(tree):
    assert reading.drop_page_cache(tree) == 3  # a.bin, c.bin, the empty file
    seen: list[int] = []
    result = reading.read_back(tree, seen.append, chunk=1000)
    assert result.bytes == 8000
    assert seen[-1] == 8000


def test_the_read_method_says_where_reads_came_from():
    cli = reading.read_method(primarycache_metadata=True, sample_bytes=10, arc_max=100)
    assert "primarycache=metadata" in cli
    assert "larger than the ARC" not in cli
    big = reading.read_method(primarycache_metadata=True, sample_bytes=200, arc_max=100)
    assert "larger than the ARC" in big
    sandbox = reading.read_method(primarycache_metadata=False, sample_bytes=10, arc_max=None)
    assert "posix_fadvise" in sandbox


STAT = "cpu  {busy} 0 0 {idle} 0 0 0 0\ncpu0 {busy} 0 0 {idle} 0 0 0 0\n"
MEMINFO = "MemTotal: 1000 kB\nMemFree: {free} kB\nCached: 100 kB\n"


class FakeProc:
    """/proc as a list of readings: each /proc/stat read moves the clock on."""

    def __init__(self, stats: list[tuple[int, int]], arc: str | None = None) -> None:
        self.stats = stats
        self.arc = arc
        self.free = 500

    def __call__(self, path: str) -> str:
        if path == "/proc/stat":
            busy, idle = self.stats.pop(0) if len(self.stats) > 1 else self.stats[0]
            return STAT.format(busy=busy, idle=idle)
        if path == "/proc/meminfo":
            self.free -= 100  # memory fills while the copy runs
            return MEMINFO.format(free=max(self.free, 0))
        if self.arc is None:
            raise FileNotFoundError(path)
        return self.arc


def test_the_load_sampler_gives_mean_and_peak_cpu_and_peak_ram():
    fake = FakeProc([(0, 0), (50, 50), (150, 50), (150, 250)])
    with load.LoadSampler(fake, interval=0.01) as sampler:
        while len(fake.stats) > 1:
            pass
    summary = sampler.summary()
    assert summary.cpu_percent == 37.5  # 150 busy of 400 ticks over the whole copy
    assert summary.cpu_peak_percent == 100.0  # the interval with 100 busy ticks only
    assert summary.ram_used_bytes >= 400 * KIB
    assert summary.arc_bytes is None  # no arcstats: no ARC
    assert summary.samples >= 2


def test_the_load_sampler_reads_the_arc_where_there_is_one():
    arcstats = "\n".join(
        [
            "13 1 0x01 123 4567 890 123",
            "name type data",
            "size 4 4096",
            "c 4 8192",
            "c_min 4 1024",
            "c_max 4 16384",
            "hits 4 1",
            "misses 4 1",
        ]
    )
    with load.LoadSampler(FakeProc([(0, 0), (1, 1)], arcstats), interval=0.01) as sampler:
        pass
    assert sampler.summary().arc_bytes == 4096


def test_the_load_sampler_reads_this_machines_proc():
    with load.LoadSampler(interval=0.01) as sampler:
        sum(range(10**5))
    summary = sampler.summary()
    assert 0 <= summary.cpu_percent <= 100
    assert summary.ram_used_bytes > 0


def test_scratch_names_carry_their_job():
    name = scratch.scratch_name("tank", 42, "gzip-6")
    assert name == "tank/nasui-scratch-42-gzip-6"
    assert scratch.scratch_job_id(name) == 42
    assert scratch.scratch_job_id("tank/data/nasui-scratch-7-fio") == 7


@pytest.mark.parametrize(
    "name",
    [
        "tank",
        "tank/nasui-scratch-",
        "tank/nasui-scratch-x-lz4",
        "tank/my-nasui-scratch-3-lz4",
        "tank/nasui-scratch-3-lz4/child",
    ],
)
def test_other_names_are_not_scratch(name):
    assert scratch.scratch_job_id(name) is None


def test_the_arc_hit_share_of_a_read_back_comes_from_demand_data_counters():
    def arcstats(hits: int, misses: int) -> str:
        return "\n".join(
            [
                "13 1 0x01 1 2 3 4",
                "name type data",
                "size 4 1",
                "c 4 1",
                "c_min 4 1",
                "c_max 4 1",
                f"demand_data_hits 4 {hits}",
                f"demand_data_misses 4 {misses}",
            ]
        )

    before = load.arc_data_counters(lambda _: arcstats(10, 10))
    after = load.arc_data_counters(lambda _: arcstats(11, 109))
    assert load.arc_hit_percent(before, after) == 1.0
    assert load.arc_hit_percent(before, before) is None  # nothing was read


def test_without_an_arc_there_is_no_hit_share():
    def missing(path: str) -> str:
        raise FileNotFoundError(path)

    assert load.arc_data_counters(missing) is None
    assert load.arc_hit_percent(None, None) is None

"""The cli engine's command lines, checked with an injected runner (no ZFS needed)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import pytest

from storage.zfs.base import PoolLayout, ZfsEngine
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import (
    DatasetBusy,
    DatasetNotFound,
    InvalidLayout,
    InvalidProperty,
    PoolBusy,
    PoolNotFound,
    VolumeShrink,
    ZfsTimeout,
    ZfsUnavailable,
)
from storage.zfs.runner import CommandResult, ScriptedRunner, fail, subprocess_runner

DEFAULTS = ["-o", "ashift=12", "-O", "compression=lz4", "-O", "atime=off"]


def engine_with(
    responses: dict[tuple[str, ...], str | CommandResult] | None = None,
) -> tuple[CliZfsEngine, ScriptedRunner]:
    runner = ScriptedRunner(responses=dict(responses or {}))
    return CliZfsEngine(runner), runner


def test_it_satisfies_the_engine_protocol() -> None:
    assert isinstance(CliZfsEngine(), ZfsEngine)


def test_zvol_path_is_the_udev_device_node() -> None:
    engine, _ = engine_with()
    assert str(engine.zvol_path("tank/vm/disk0")) == "/dev/zvol/tank/vm/disk0"


def test_zvol_path_refuses_a_name_that_would_leave_dev_zvol() -> None:
    engine, _ = engine_with()
    with pytest.raises(InvalidProperty):
        engine.zvol_path("tank/../../etc/shadow")


def test_pool_iostat_asks_for_one_report_over_the_interval() -> None:
    engine, runner = engine_with({("zpool", "iostat"): "tank\t1\t2\t3\t4\t5\t6\n"})
    assert engine.pool_iostat(2) == "tank\t1\t2\t3\t4\t5\t6\n"
    assert runner.last == ("zpool", "iostat", "-H", "-p", "-y", "2", "1")


def test_list_disks_keeps_whole_disks_from_lsblk_through_the_engines_runner() -> None:
    lsblk = (
        '{"blockdevices": ['
        '{"name": "sda", "path": "/dev/sda", "size": 1000, "type": "disk", "model": null,'
        ' "serial": null, "rota": true, "fstype": null, "mountpoint": null},'
        '{"name": "zd0", "path": "/dev/zd0", "size": 1000, "type": "disk", "model": null,'
        ' "serial": null, "rota": false, "fstype": null, "mountpoint": null}]}'
    )
    engine, runner = engine_with({("lsblk",): lsblk})
    assert [d.name for d in engine.list_disks()] == ["sda"]
    assert runner.last[0] == "lsblk"


def test_settle_flushes_buffered_writes_then_syncs_the_pool() -> None:
    engine, runner = engine_with()
    engine.settle("tank")
    assert runner.calls == [("sync",), ("zpool", "sync", "tank")]


def test_settle_without_a_pool_syncs_every_pool() -> None:
    engine, runner = engine_with()
    engine.settle()
    assert runner.calls == [("sync",), ("zpool", "sync")]


def test_settle_refuses_a_bad_pool_name_before_running_anything() -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidProperty):
        engine.settle("-f")
    assert runner.calls == []


def test_settle_reports_a_missing_pool(fixture_text: Callable[[str], str]) -> None:
    stderr = fixture_text("err_pool_not_found.stderr")
    engine, _ = engine_with({("zpool", "sync"): fail(stderr)})
    with pytest.raises(PoolNotFound):
        engine.settle("nosuchpool")


def test_list_all_datasets_is_one_zfs_list_without_a_root(
    zfs_list_tank: str,
) -> None:
    engine, runner = engine_with({("zfs", "list"): zfs_list_tank})
    found = engine.list_all_datasets()
    assert found[0].name == "tank"
    assert len(runner.calls) == 1
    argv = runner.last
    assert argv[:3] == ("zfs", "list", "-H")
    assert "-r" not in argv
    assert argv[-2:] == ("-t", "filesystem,volume"), "no root named: every pool"


def test_datasets_carry_the_time_they_were_read(zfs_list_tank: str) -> None:
    runner = ScriptedRunner(responses={("zfs", "list"): zfs_list_tank})
    engine = CliZfsEngine(runner, clock=lambda: 1_800_000_000.5)
    assert {d.figures_read_at for d in engine.list_datasets("tank")} == {1_800_000_000.5}


@pytest.mark.parametrize(
    ("layout", "vdevs"),
    [
        (PoolLayout.single("stripe", ["/dev/a", "/dev/b"]), ["/dev/a", "/dev/b"]),
        (PoolLayout.single("mirror", ["/dev/a", "/dev/b"]), ["mirror", "/dev/a", "/dev/b"]),
        (
            PoolLayout(type="mirror", groups=(("/dev/a", "/dev/b"), ("/dev/c", "/dev/d"))),
            ["mirror", "/dev/a", "/dev/b", "mirror", "/dev/c", "/dev/d"],
        ),
        (
            PoolLayout.single("raidz1", ["/dev/a", "/dev/b", "/dev/c"]),
            ["raidz1", "/dev/a", "/dev/b", "/dev/c"],
        ),
        (
            PoolLayout.single("raidz3", ["/dev/a", "/dev/b", "/dev/c", "/dev/d", "/dev/e"]),
            ["raidz3", "/dev/a", "/dev/b", "/dev/c", "/dev/d", "/dev/e"],
        ),
    ],
)
def test_it_builds_zpool_create_for_each_layout(layout: PoolLayout, vdevs: list[str]) -> None:
    engine, runner = engine_with()
    engine.create_pool("tank", layout)

    assert runner.calls == [("zpool", "create", *DEFAULTS, "tank", *vdevs)]


def test_it_adds_force_log_cache_and_spares() -> None:
    engine, runner = engine_with()
    layout = PoolLayout(
        type="raidz2",
        groups=(("/dev/a", "/dev/b", "/dev/c", "/dev/d"),),
        log=("/dev/e", "/dev/f"),
        log_mirror=True,
        cache=("/dev/g",),
        spares=("/dev/h",),
    )
    engine.create_pool("tank", layout, force=True, fs_properties={"compression": "zstd"})

    assert runner.last == (
        "zpool", "create", "-f", "-o", "ashift=12", "-O", "compression=zstd", "-O", "atime=off",
        "tank", "raidz2", "/dev/a", "/dev/b", "/dev/c", "/dev/d",
        "log", "mirror", "/dev/e", "/dev/f", "cache", "/dev/g", "spare", "/dev/h",
    )  # fmt: skip


@pytest.mark.parametrize(
    "layout",
    [
        PoolLayout.single("raidz1", ["/dev/a", "/dev/b"]),
        PoolLayout.single("raidz3", ["/dev/a", "/dev/b", "/dev/c", "/dev/d"]),
        PoolLayout.single("mirror", ["/dev/a"]),
        PoolLayout(type="mirror", groups=(("/dev/a", "/dev/b"), ("/dev/c", "/dev/d", "/dev/e"))),
        PoolLayout.single("mirror", ["/dev/a", "/dev/a"]),
        PoolLayout.single("raid5", ["/dev/a", "/dev/b", "/dev/c"]),
        PoolLayout(type="stripe", groups=()),
    ],
)
def test_it_refuses_a_bad_layout_without_running_anything(layout: PoolLayout) -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidLayout):
        engine.create_pool("tank", layout)
    assert runner.calls == []


@pytest.mark.parametrize("name", ["-f", "mirror", "raidz2x", "c0", "a b", "tank;rm", "", "1tank"])
def test_it_refuses_pool_names_that_zpool_could_misread(name: str) -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidProperty):
        engine.create_pool(name, PoolLayout.single("stripe", ["/dev/a"]))
    assert runner.calls == []


@pytest.mark.parametrize("name", ["tank/", "-tank/x", "tank//x", "tank/a b", "tank/x@snap"])
def test_it_refuses_dataset_names_that_zfs_could_misread(name: str) -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidProperty):
        engine.create_dataset(name)
    assert runner.calls == []


def test_it_creates_a_sparse_zvol_with_s_and_v() -> None:
    engine, runner = engine_with()
    engine.create_zvol(
        "tank/vol", size=1 << 30, volblocksize=16384, sparse=True,
        properties={"compression": "zstd", "dedup": "on"},
    )  # fmt: skip

    assert runner.last == (
        "zfs", "create", "-s", "-V", str(1 << 30), "-o", "compression=zstd", "-o", "dedup=on",
        "-o", "volblocksize=16384", "tank/vol",
    )  # fmt: skip


def test_it_creates_a_thick_zvol_without_s() -> None:
    engine, runner = engine_with()
    engine.create_zvol("tank/vol", size=64 << 20)

    assert runner.last == ("zfs", "create", "-V", str(64 << 20), "tank/vol")


@pytest.mark.parametrize(("size", "block"), [(1000, 512), ((1 << 20) + 512, 16384), (0, None)])
def test_it_refuses_zvol_sizes_that_do_not_fit_the_block_size(size: int, block: int | None) -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidProperty):
        engine.create_zvol("tank/vol", size=size, volblocksize=block)
    assert runner.calls == []


def test_it_refuses_a_block_size_that_is_not_a_power_of_two() -> None:
    engine, _ = engine_with()
    with pytest.raises(InvalidProperty):
        engine.create_zvol("tank/vol", size=3 * 12288, volblocksize=12288)


def test_it_creates_datasets_and_sets_and_inherits_properties() -> None:
    engine, runner = engine_with()
    engine.create_dataset("tank/fs", properties={"compression": "gzip-9", "nasui:comment": "x y"})
    engine.set_properties("tank/fs", {"quota": "1073741824", "atime": "on"})
    engine.inherit_property("tank/fs", "compression", recursive=True)

    assert runner.calls == [
        ("zfs", "create", "-o", "compression=gzip-9", "-o", "nasui:comment=x y", "tank/fs"),
        ("zfs", "set", "quota=1073741824", "atime=on", "tank/fs"),
        ("zfs", "inherit", "-r", "compression", "tank/fs"),
    ]


def test_it_refuses_bad_property_names_and_values() -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidProperty):
        engine.set_properties("tank/fs", {"-o": "x"})
    with pytest.raises(InvalidProperty):
        engine.set_properties("tank/fs", {"nasui:comment": "two\nlines"})
    assert runner.calls == []


def test_it_lists_a_pool_with_one_zfs_list(zfs_list_tank: str) -> None:
    engine, runner = engine_with({("zfs", "list"): zfs_list_tank})
    datasets = engine.list_datasets("tank")

    assert len(runner.calls) == 1
    assert runner.last[:4] == ("zfs", "list", "-H", "-p")
    assert runner.last[-2:] == ("-r", "tank")
    assert len(datasets) == len(zfs_list_tank.splitlines())


def test_it_grows_a_zvol(zfs_list_tank: str) -> None:
    line = next(ln for ln in zfs_list_tank.splitlines() if "tank/thin\t" in ln)
    engine, runner = engine_with({("zfs", "list"): line + "\n"})
    engine.grow_zvol("tank/thin", 256 << 20)

    assert runner.last == ("zfs", "set", f"volsize={256 << 20}", "tank/thin")


def test_it_refuses_to_shrink_a_zvol(zfs_list_tank: str) -> None:
    line = next(ln for ln in zfs_list_tank.splitlines() if "tank/thin\t" in ln)
    engine, runner = engine_with({("zfs", "list"): line + "\n"})

    with pytest.raises(VolumeShrink):
        engine.grow_zvol("tank/thin", 64 << 20)
    assert [c[:2] for c in runner.calls] == [("zfs", "list")]


def test_it_reports_a_missing_dataset(fixture_text: Callable[[str], str]) -> None:
    stderr = fixture_text("err_dataset_not_found.stderr")
    engine, _ = engine_with({("zfs", "list"): fail(stderr)})
    with pytest.raises(DatasetNotFound) as err:
        engine.get_dataset("tank/nothing")
    assert "does not exist" in str(err.value)


def test_it_destroys_with_flags_and_never_a_pool_root() -> None:
    engine, runner = engine_with()
    engine.destroy_dataset("tank/fs", recursive=True)
    engine.destroy_dataset("tank/vol")
    with pytest.raises(Exception, match="destroy the pool"):
        engine.destroy_dataset("tank")

    assert runner.calls == [("zfs", "destroy", "-r", "tank/fs"), ("zfs", "destroy", "tank/vol")]


def test_it_exports_imports_and_destroys_pools() -> None:
    engine, runner = engine_with()
    engine.export_pool("tank")
    engine.import_pool("3631491771680828841", new_name="old", search_dirs=["/dev/disk/by-id"])
    engine.import_pool("tank", force=True)
    engine.destroy_pool("tank", force=True)

    assert runner.calls == [
        ("zpool", "export", "tank"),
        ("zpool", "import", "-d", "/dev/disk/by-id", "3631491771680828841", "old"),
        ("zpool", "import", "-f", "tank"),
        ("zpool", "destroy", "-f", "tank"),
    ]


def test_it_raises_pool_busy_on_export(fixture_text: Callable[[str], str]) -> None:
    engine, _ = engine_with({("zpool", "export"): fail(fixture_text("err_pool_busy.stderr"))})
    with pytest.raises(PoolBusy):
        engine.export_pool("tank")


def test_it_lists_nothing_to_import_as_empty(fixture_text: Callable[[str], str]) -> None:
    answer = CommandResult((), 0, "", fixture_text("zpool_import_none.stderr"))
    engine, _ = engine_with({("zpool", "import"): answer})
    assert engine.importable_pools() == []


def test_it_lists_importable_pools(fixture_text: Callable[[str], str]) -> None:
    engine, runner = engine_with({("zpool", "import"): fixture_text("zpool_import.txt")})
    assert [p.name for p in engine.importable_pools()] == ["fast", "tank"]
    assert runner.last == ("zpool", "import")


def test_scrub_stop_says_whether_a_scrub_was_running() -> None:
    stderr = "cannot cancel scrubbing tank: there is no active scrub\n"
    engine, runner = engine_with({("zpool", "scrub", "-s"): fail(stderr)})
    engine.scrub_start("tank")

    assert engine.scrub_stop("tank") is False
    assert runner.calls == [("zpool", "scrub", "tank"), ("zpool", "scrub", "-s", "tank")]


@pytest.mark.parametrize(
    ("version", "zdb"),
    [("version.txt", "zdb_DD_tank.txt"),
     ("openzfs-2.3-handwritten/version.txt", "openzfs-2.3-handwritten/zdb_DD.txt")],
)  # fmt: skip
def test_it_reads_ddt_sizes_as_totals_for_each_version(
    fixture_text: Callable[[str], str], version: str, zdb: str
) -> None:
    engine, runner = engine_with(
        {("zfs", "version"): fixture_text(version), ("zdb", "-DD"): fixture_text(zdb)}
    )
    table = engine.dedup_table_zdb("tank")

    match = re.search(r"(\d+) entries, size (\d+) on disk", fixture_text(zdb))
    assert match
    entries, disk = int(match.group(1)), int(match.group(2))
    totals = "2.3" in version  # 2.1 prints a per-entry average, 2.3 the total
    assert (table.entries, table.size_on_disk) == (entries, disk if totals else disk * entries)
    assert runner.calls == [("zdb", "-DD", "tank"), ("zfs", "version")]
    assert runner.timeouts[0] > 600  # zdb walks the pool: it gets the long timeout


def test_arcstats_come_from_the_kstat_file(fixture_text: Callable[[str], str]) -> None:
    engine = CliZfsEngine(ScriptedRunner(), read_text=lambda path: fixture_text("arcstats.txt"))
    assert engine.arcstats().c_max > 0


def test_the_subprocess_runner_uses_no_shell() -> None:
    result = subprocess_runner(["printf", "%s|", "a b", "$HOME;echo x"], timeout=10)
    assert result.stdout == "a b|$HOME;echo x|"
    assert result.returncode == 0


def test_the_subprocess_runner_kills_a_command_at_its_timeout() -> None:
    with pytest.raises(ZfsTimeout) as err:
        subprocess_runner(["sleep", "5"], timeout=0.2)
    assert err.value.argv == ("sleep", "5")


def test_the_subprocess_runner_reports_missing_tools() -> None:
    with pytest.raises(ZfsUnavailable):
        subprocess_runner(["/nonexistent/zpool", "list"], timeout=5)


class BusyThenFree:
    """A runner whose `zfs destroy` is refused as busy `busy` times (udev probing the zvol)."""

    def __init__(self, busy: int) -> None:
        self.busy = busy
        self.calls: list[tuple[str, ...]] = []

    def __call__(
        self, argv: Sequence[str], *, timeout: float, stdin: str | None = None
    ) -> CommandResult:
        self.calls.append(tuple(argv))
        if tuple(argv[:2]) == ("zfs", "destroy") and self.busy:
            self.busy -= 1
            return fail("cannot destroy 'tank/vol': dataset is busy")
        return CommandResult(tuple(argv), 0, "", "")


def test_a_zvol_busy_for_a_moment_is_destroyed_after_udev_settles() -> None:
    runner, pauses = BusyThenFree(busy=2), list[float]()
    CliZfsEngine(runner, sleep=pauses.append).destroy_dataset("tank/vol", force=True)
    settle = ("udevadm", "settle", "--timeout=5")
    destroy = ("zfs", "destroy", "-f", "tank/vol")
    assert runner.calls == [destroy, settle, destroy, settle, destroy]
    assert len(pauses) == 2


def test_a_zvol_that_stays_busy_is_refused_once_the_retries_run_out() -> None:
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    runner = BusyThenFree(busy=1000)
    engine = CliZfsEngine(runner, clock=lambda: now[0], sleep=sleep)
    with pytest.raises(DatasetBusy):
        engine.destroy_dataset("tank/vol")
    assert 10.0 <= now[0] <= 11.0  # BUSY_RETRY_SECONDS, in pauses of half a second

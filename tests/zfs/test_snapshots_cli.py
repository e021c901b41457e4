"""Snapshots in the cli engine: parsers over real OpenZFS output, command lines, typed errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storage.zfs import errors
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import InvalidProperty, classify
from storage.zfs.parse.snapshots import parse_snapshot_list, parse_zfs_diff, unescape_path
from storage.zfs.runner import ScriptedRunner, fail
from storage.zfs.snapshots import DiffEntry, check_snapshot_name, snapshot_name_problem


def read(fixture_text: Callable[[str], str], name: str) -> str:
    return fixture_text(f"snapshots/{name}")


def test_the_snapshot_list_keeps_order_sizes_and_the_task_stamp(fixture_text) -> None:
    snaps = parse_snapshot_list(read(fixture_text, "zfs_list_snapshots.txt"))
    assert [s.name for s in snaps] == [
        "sx/d@one", "sx/d@two", "sx/d@three", "sx/d/kid@two", "sx/vol@v1",
    ]  # fmt: skip
    first = snaps[0]
    assert (first.dataset, first.short_name, first.task) == ("sx/d", "one", "7")
    assert (first.created, first.referenced, first.holds, first.clones) == (
        1795459565,
        106496,
        0,
        (),
    )
    assert snaps[1].task == ""


def test_clones_are_split_on_commas() -> None:
    text = "sx/d@two\t1795459565\t0\t106496\t1\tsx/cl,sx/cl2\t-\n"
    (snap,) = parse_snapshot_list(text)
    assert snap.clones == ("sx/cl", "sx/cl2")
    assert snap.holds == 1


@pytest.mark.parametrize("name", ["zfs_diff.txt", "zfs_diff_t.txt"])
def test_zfs_diff_lines_become_entries_with_octal_escapes_undone(fixture_text, name) -> None:
    entries = parse_zfs_diff(read(fixture_text, name))
    assert entries == [
        DiffEntry("renamed", "directory", "/sx/d/dir", "/sx/d/dir2"),
        DiffEntry("modified", "directory", "/sx/d/"),
        DiffEntry("modified", "file", "/sx/d/a.txt"),
        DiffEntry("removed", "file", "/sx/d/dir/sp ace.txt"),
        DiffEntry("added", "file", "/sx/d/b.txt"),
    ]


def test_unescape_keeps_utf8_names_whole() -> None:
    assert unescape_path("/d/caf\\0303\\0251") == "/d/café"


@pytest.mark.parametrize(
    ("name", "expected", "names"),
    [
        ("err_rollback_newer.stderr", errors.NewerSnapshots, ["sx/d@two", "sx/d@three"]),
        ("err_destroy_clones.stderr", errors.HasClones, ["sx/cl"]),
        ("err_rollback_clones.stderr", errors.HasClones, ["sx/cl"]),
        ("err_snapshot_not_found.stderr", errors.SnapshotNotFound, None),
        ("err_snapshot_held.stderr", errors.DatasetBusy, None),
        ("err_snapshot_exists.stderr", errors.DatasetExists, None),
    ],
)
def test_snapshot_failures_are_typed_and_name_what_blocks_them(
    fixture_text, name, expected, names
) -> None:
    error = classify(("zfs",), 1, read(fixture_text, name))
    assert type(error) is expected
    if names is not None:
        assert error.names == names  # type: ignore[attr-defined]


def test_dependent_clones_still_count_as_children_for_older_callers() -> None:
    assert issubclass(errors.HasClones, errors.HasChildren)


def engine() -> tuple[CliZfsEngine, ScriptedRunner]:
    runner = ScriptedRunner()
    return CliZfsEngine(runner), runner


def test_create_stamps_properties_and_recurses_in_one_command() -> None:
    cli, runner = engine()
    cli.create_snapshot("tank/d@auto-1", recursive=True, properties={"nasui:task": "3"})
    assert runner.last == ("zfs", "snapshot", "-r", "-o", "nasui:task=3", "tank/d@auto-1")


def test_list_asks_for_one_level_sorted_by_creation() -> None:
    cli, runner = engine()
    assert cli.list_snapshots("tank/d") == []
    assert runner.last[-4:] == ("createtxg", "-d", "1", "tank/d")
    cli.list_snapshots("tank/d", recursive=True)
    assert runner.last[-2:] == ("-r", "tank/d")


def test_destroy_names_every_snapshot_in_one_argument() -> None:
    cli, runner = engine()
    cli.destroy_snapshots("tank/d", ["a", "b"])
    assert runner.last == ("zfs", "destroy", "tank/d@a,b")
    runner.calls.clear()
    cli.destroy_snapshots("tank/d", [])
    assert runner.calls == []


def test_rollback_never_destroys_clones() -> None:
    cli, runner = engine()
    cli.rollback("tank/d@a", destroy_newer=True)
    assert runner.last == ("zfs", "rollback", "-r", "tank/d@a")
    cli.rollback("tank/d@a")
    assert runner.calls[-1] == ("zfs", "rollback", "tank/d@a")


def test_clone_stays_in_the_pool_and_diff_compares_two_points() -> None:
    cli, runner = engine()
    with pytest.raises(InvalidProperty):
        cli.clone("tank/d@a", "other/c")
    cli.clone("tank/d@a", "tank/c", properties={"compression": "lz4"})
    assert runner.last == ("zfs", "clone", "-o", "compression=lz4", "tank/d@a", "tank/c")
    cli.diff("tank/d@a", "tank/d@b")
    assert runner.last == ("zfs", "diff", "-H", "-F", "tank/d@a", "tank/d@b")


def test_a_hold_tag_that_looks_like_an_option_stays_a_tag() -> None:
    cli, runner = engine()
    cli.hold("tank/d@a", "-r")
    assert runner.last == ("zfs", "hold", "--", "-r", "tank/d@a")


def test_a_refused_rollback_raises_with_the_newer_snapshots(fixture_text) -> None:
    stderr = read(fixture_text, "err_rollback_newer.stderr")
    cli = CliZfsEngine(ScriptedRunner(responses={("zfs", "rollback"): fail(stderr)}))
    with pytest.raises(errors.NewerSnapshots) as caught:
        cli.rollback("sx/d@one")
    assert caught.value.names == ["sx/d@two", "sx/d@three"]


def test_newer_snapshots_come_oldest_first_whatever_order_openzfs_lists_them() -> None:
    # OpenZFS walks its snapshot directory in hash order; seen in the VM as three before two.
    stderr = (
        "cannot rollback to 'sx/d@one': more recent snapshots or bookmarks exist\n"
        "use '-r' to force deletion of the following snapshots and bookmarks:\n"
        "sx/d#mark\nsx/d@three\nsx/d@two\n"
    )
    listing = "".join(
        f"sx/d@{n}\t1795459565\t0\t106496\t0\t-\t-\n" for n in ("one", "two", "three")
    )
    runner = ScriptedRunner(responses={("zfs", "rollback"): fail(stderr), ("zfs", "list"): listing})
    with pytest.raises(errors.NewerSnapshots) as caught:
        CliZfsEngine(runner).rollback("sx/d@one")
    assert caught.value.names == ["sx/d@two", "sx/d@three", "sx/d#mark"]


@pytest.mark.parametrize(
    "bad", ["tank/d", "tank/d@", "tank/d@with space", "tank/d@a/b", "tank/d@..", "tank/d@a@b"]
)
def test_bad_snapshot_names_never_reach_zfs(bad: str) -> None:
    cli, runner = engine()
    with pytest.raises(InvalidProperty):
        cli.create_snapshot(bad)
    assert runner.calls == []


def test_a_name_problem_is_said_in_words() -> None:
    assert snapshot_name_problem("") == "Give the snapshot a name."
    assert "letters, digits" in (snapshot_name_problem("a b") or "")
    assert check_snapshot_name("tank/a/b@auto-2026") == ("tank/a/b", "auto-2026")

"""Snapshot services on the sandbox engine: each refusal names its field and what blocks it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from storage.datasets import services
from storage.engine import get_engine
from storage.registry import Holder, register_holder_checker, unregister_holder_checker
from storage.snapshots import selectors as snapshot_selectors
from storage.snapshots import services as snapshot_services
from storage.tests.snapshot_helpers import names

pytestmark = pytest.mark.django_db


def errors(caught: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return caught.value.message_dict


def test_a_manual_snapshot_gets_a_dated_name_when_none_is_given(home: Path) -> None:
    made = snapshot_services.snapshot_create(dataset="tank/home")
    assert made.short_name.startswith("manual-")
    assert snapshot_services.snapshot_create(dataset="tank/home", name="mine").name == (
        "tank/home@mine"
    )


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"dataset": "tank/nope"}, "dataset", "no dataset or zvol named"),
        ({"dataset": "tank/home", "name": "bad name"}, "name", "letters, digits"),
    ],
)
def test_bad_input_names_the_field(home: Path, values, field: str, words: str) -> None:
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_create(**values)
    assert words in errors(caught)[field][0]
    assert names() == []


def test_a_second_snapshot_with_the_same_name_is_refused(home: Path) -> None:
    snapshot_services.snapshot_create(dataset="tank/home", name="a")
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_create(dataset="tank/home", name="a")
    assert errors(caught) == {"name": ["tank/home already has a snapshot named “a”."]}


def test_rollback_asks_before_destroying_newer_snapshots_and_names_them(home: Path) -> None:
    for name in ("one", "two", "three"):
        snapshot_services.snapshot_create(dataset="tank/home", name=name)
    (home / "notes.txt").write_text("v2")
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_rollback(snapshot="tank/home@one")
    message = errors(caught)["destroy_newer"][0]
    assert "“tank/home@two”, “tank/home@three”" in message
    assert (home / "notes.txt").read_text() == "v2"
    assert snapshot_services.snapshot_rollback(snapshot="tank/home@one", destroy_newer=True) == [
        "tank/home@two",
        "tank/home@three",
    ]
    assert (home / "notes.txt").read_text() == "v1"
    assert names() == ["one"]


def test_a_clone_blocks_destroy_and_rollback_by_name(home: Path) -> None:
    snapshot_services.snapshot_create(dataset="tank/home", name="one")
    snapshot_services.snapshot_create(dataset="tank/home", name="two")
    assert snapshot_services.snapshot_clone(snapshot="tank/home@two", target="tank/restore") == (
        "tank/restore"
    )
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_destroy(dataset="tank/home", names=["one", "two"])
    assert "tank/restore" in errors(caught)["names"][0]
    assert names() == ["one", "two"]
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_rollback(snapshot="tank/home@one", destroy_newer=True)
    assert "tank/restore" in errors(caught)["destroy_newer"][0]


def test_a_held_snapshot_is_named_and_kept(home: Path) -> None:
    snapshot_services.snapshot_create(dataset="tank/home", name="one")
    get_engine().hold("tank/home@one", "keep")
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_destroy(dataset="tank/home", names=["one"])
    assert "held" in errors(caught)["names"][0]


def test_a_range_destroy_takes_everything_between_oldest_first(home: Path) -> None:
    for name in ("a", "b", "c", "d"):
        snapshot_services.snapshot_create(dataset="tank/home", name=name)
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_destroy_range(dataset="tank/home", first="c", last="a")
    assert "oldest first" in errors(caught)["last"][0]
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_destroy_range(dataset="tank/home", first="x", last="c")
    assert "no snapshot named “x”" in errors(caught)["first"][0]
    assert snapshot_services.snapshot_destroy_range(dataset="tank/home", first="b", last="c") == 2
    assert names() == ["a", "d"]


def test_missing_snapshots_are_named_and_nothing_is_destroyed(home: Path) -> None:
    snapshot_services.snapshot_create(dataset="tank/home", name="a")
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_destroy(dataset="tank/home", names=["a", "zz"])
    assert errors(caught) == {"names": ["tank/home has no snapshot named “zz”."]}
    assert names() == ["a"]


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("other/restore", "same pool"),
        ("tank", "inside a pool"),
        ("tank/home", "already exists"),
        ("tank/no/such", "parent dataset does not exist"),
        ("tank/bad name", "letters"),
    ],
)
def test_a_clone_target_is_checked(home: Path, target: str, words: str) -> None:
    snapshot_services.snapshot_create(dataset="tank/home", name="a")
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_clone(snapshot="tank/home@a", target=target)
    assert words in errors(caught)["target"][0]


def test_a_zvol_served_to_initiators_is_not_rolled_back_under_them(tank) -> None:
    services.zvol_create(parent="tank", name="vm", size="64M")
    snapshot_services.snapshot_create(dataset="tank/vm", name="a")
    register_holder_checker(
        "test", lambda name, _: [Holder("iSCSI extent", "vm")] * (name == "tank/vm")
    )
    try:
        with pytest.raises(ValidationError) as caught:
            snapshot_services.snapshot_rollback(snapshot="tank/vm@a")
    finally:
        unregister_holder_checker("test")
    assert "iSCSI extent vm" in errors(caught)["snapshot"][0]
    snapshot_services.snapshot_rollback(snapshot="tank/vm@a")


def test_diff_says_what_changed_and_refuses_zvols(home: Path, tank) -> None:
    snapshot_services.snapshot_create(dataset="tank/home", name="a")
    (home / "notes.txt").write_text("v2!")
    (home / "new.txt").write_text("x")
    changes = {
        (e.change, Path(e.path).name) for e in snapshot_selectors.snapshot_diff("tank/home@a")
    }
    assert changes == {("modified", "notes.txt"), ("added", "new.txt")}
    services.zvol_create(parent="tank", name="vm", size="64M")
    snapshot_services.snapshot_create(dataset="tank/vm", name="a")
    with pytest.raises(ValidationError) as caught:
        snapshot_selectors.snapshot_diff("tank/vm@a")
    assert "disk image" in errors(caught)["snapshot"][0]


def test_a_name_may_carry_strftime_fields_filled_in_utc(home: Path) -> None:
    from datetime import UTC, datetime

    moment = datetime(2026, 11, 23, 18, 30, tzinfo=UTC)
    made = snapshot_services.snapshot_create(
        dataset="tank/home", name="pre-%Y%m%d-%H%M", now=moment
    )
    assert made.short_name == "pre-20261123-1830"
    with pytest.raises(ValidationError) as caught:
        snapshot_services.snapshot_create(dataset="tank/home", name="x-%A")
    assert "%A cannot be used" in errors(caught)["name"][0]


def test_two_snapshots_named_from_the_same_second_both_succeed(home: Path) -> None:
    from datetime import UTC, datetime

    moment = datetime(2026, 11, 23, 18, 30, 5, tzinfo=UTC)
    first = snapshot_services.snapshot_create(dataset="tank/home", now=moment)
    second = snapshot_services.snapshot_create(dataset="tank/home", now=moment)
    assert first.short_name == "manual-2026-11-23_18-30-05"
    assert second.short_name == "manual-2026-11-23_18-30-05-2"
    coded = snapshot_services.snapshot_create(
        dataset="tank/home", name="auto-%Y-%m-%d_%H-%M", now=moment
    )
    again = snapshot_services.snapshot_create(
        dataset="tank/home", name="auto-%Y-%m-%d_%H-%M", now=moment
    )
    assert (coded.short_name, again.short_name) == (
        "auto-2026-11-23_18-30",
        "auto-2026-11-23_18-30-2",
    )

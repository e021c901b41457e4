"""What a replication run sends: full at first, then from the newest snapshot both sides share."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from replication.replications.engine import chain
from replication.replications.engine.chain import Base, SnapStamp, Step
from replication.replications.engine.errors import (
    REPLACE,
    ROLLBACK,
    ChainBroken,
    TargetDiverged,
    TargetHasData,
)
from storage.zfs import naming

ELIGIBLE = chain.named_by(naming.DEFAULT_SCHEMA)
A1, A2, A3, A4, A5 = (f"auto-2026-03-0{day}_00-00" for day in range(1, 6))


def side(*names: str, start: int = 100) -> list[SnapStamp]:
    """Snapshots in the order they were made; the guid follows the name, as send/recv keeps it."""
    return [SnapStamp(name, f"guid-{name}", start + index) for index, name in enumerate(names)]


def source(*names: str) -> list[SnapStamp]:
    return side(*names, start=1000)


def target(*names: str) -> list[SnapStamp]:
    """The target's createtxg are its own: not comparable with the source's."""
    return side(*names, start=7)


def plan(src: Sequence[SnapStamp], tgt: Sequence[SnapStamp] | None, **kw: object) -> chain.Plan:
    return chain.plan(src, tgt, ELIGIBLE, **kw)  # type: ignore[arg-type]


def test_the_first_run_sends_the_oldest_in_full_then_the_rest() -> None:
    first = plan(source(A1, A2, A3), None)
    assert first.kind == "full"
    assert first.steps == (Step(A1), Step(A3, base=A1, intermediates=True))
    assert first.arrives == (A1, A2, A3)
    assert not first.force
    assert chain.protected(first) is None
    assert chain.base_after(first) == A3


def test_an_empty_target_dataset_is_received_over_with_force() -> None:
    first = plan(source(A1), [])
    assert first.kind == "full"
    assert first.steps == (Step(A1),)
    assert first.force
    assert first.discards == ()


def test_an_empty_target_that_holds_data_is_refused() -> None:
    with pytest.raises(TargetHasData) as refused:
        plan(source(A1), [], target_written=True)
    assert refused.value.choice == REPLACE
    assert "holds data" in str(refused.value)
    assert "choose it explicitly" in str(refused.value)


def test_later_runs_send_from_the_newest_common_snapshot() -> None:
    later = plan(source(A1, A2, A3, A4), target(A1, A2))
    assert later.kind == "incremental"
    assert later.base == Base(A2, A2)
    assert later.steps == (Step(A4, base=A2, intermediates=True),)
    assert later.arrives == (A3, A4)
    assert not later.force
    assert chain.protected(later) == Base(A2, A2)
    assert chain.base_after(later) == A4


def test_one_new_snapshot_is_a_plain_increment() -> None:
    later = plan(source(A1, A2), target(A1))
    assert later.steps == (Step(A2, base=A1, intermediates=False),)


def test_pruning_older_snapshots_on_the_source_keeps_the_chain() -> None:
    later = plan(source(A3, A4, A5), target(A1, A2, A3))
    assert later.kind == "incremental"
    assert later.base == Base(A3, A3)
    assert later.arrives == (A4, A5)


def test_an_old_base_pruned_on_the_source_is_replaced_by_a_newer_common_one() -> None:
    later = plan(source(A2, A3), target(A1, A2))
    assert later.kind == "incremental"
    assert later.base == Base(A2, A2)
    assert later.steps == (Step(A3, base=A2),)


def test_the_newest_common_pruned_on_the_source_leaves_the_target_ahead() -> None:
    # Why the base is protected: without it, the next run can only start from an older one.
    with pytest.raises(TargetDiverged) as refused:
        plan(source(A1, A3), target(A1, A2))
    assert refused.value.discards == (A2,)


def test_a_renamed_base_is_found_by_its_guid() -> None:
    renamed = [SnapStamp("kept-by-hand", f"guid-{A1}", 5)]
    later = plan(source(A1, A2), renamed)
    assert later.base == Base(source=A1, target="kept-by-hand")


def test_no_snapshot_in_common_is_a_broken_chain_in_words() -> None:
    other = [SnapStamp(A1, "guid-elsewhere-1", 1), SnapStamp(A2, "guid-elsewhere-2", 2)]
    with pytest.raises(ChainBroken) as refused:
        plan(source(A3, A4), other)
    message = str(refused.value)
    assert "no snapshot in common" in message
    assert f"the newest on the source is {A4}, on the target {A2}" in message
    assert "full re-send would replace the target's dataset and destroy its 2 snapshots" in message
    assert "choose it explicitly" in message
    assert refused.value.choice == REPLACE
    assert refused.value.discards == (A1, A2)


def test_choosing_replace_sends_in_full_over_the_target() -> None:
    other = [SnapStamp("mine", "guid-elsewhere", 1)]
    again = plan(source(A3, A4), other, choice=REPLACE)
    assert again.kind == "full"
    assert again.force
    assert again.discards == ("mine",)
    assert again.arrives == (A3, A4)


def test_newer_snapshots_on_the_target_are_named_in_the_refusal() -> None:
    with pytest.raises(TargetDiverged) as refused:
        plan(source(A1, A2, A3), target(A1, A2, "mine", "also-mine"))
    message = str(refused.value)
    assert f"changed since {A2}" in message
    assert "newer snapshots (mine, also-mine)" in message
    assert f"rollback of the target to {A2}, which destroys those snapshots" in message
    assert refused.value.choice == ROLLBACK
    assert refused.value.discards == ("mine", "also-mine")


def test_a_target_written_since_the_base_is_refused() -> None:
    with pytest.raises(TargetDiverged) as refused:
        plan(source(A1, A2), target(A1), target_written=True)
    message = str(refused.value)
    assert "data was written to it" in message
    assert "which destroys the data written since" in message
    assert refused.value.discards == ()


def test_choosing_rollback_sends_incrementally_with_force() -> None:
    again = plan(source(A1, A2, A3), target(A1, A2, "mine"), choice=ROLLBACK)
    assert again.kind == "incremental"
    assert again.force
    assert again.discards == ("mine",)
    assert again.steps == (Step(A3, base=A2),)


def test_a_choice_that_does_not_apply_forces_nothing() -> None:
    later = plan(source(A1, A2), target(A1), choice=ROLLBACK)
    assert not later.force
    assert later.discards == ()


def test_nothing_to_send_when_the_target_has_the_newest() -> None:
    idle = plan(source(A1, A2, "by-hand"), target(A1, A2))
    assert idle.kind == "nothing"
    assert idle.steps == ()
    assert chain.protected(idle) == Base(A2, A2)
    assert chain.base_after(idle) == A2


def test_nothing_to_send_when_no_snapshot_is_eligible() -> None:
    assert plan(source("by-hand"), None).kind == "nothing"


def test_snapshots_that_are_not_eligible_are_stepped_over() -> None:
    later = plan(source(A1, A2, "by-hand", A3, A4, A5), target(A1))
    assert later.steps == (
        Step(A2, base=A1),
        Step(A3, base=A2),
        Step(A5, base=A3, intermediates=True),
    )
    assert later.arrives == (A2, A3, A4, A5)


def test_a_first_run_starts_at_the_oldest_eligible_snapshot() -> None:
    first = plan(source("by-hand", A1, "other", A2), None)
    assert first.steps == (Step(A1), Step(A2, base=A1))
    assert first.arrives == (A1, A2)


def test_eligible_snapshots_are_those_a_schema_made() -> None:
    eligible = chain.named_by(naming.DEFAULT_SCHEMA, "daily-%Y%m%d-%H%M")
    assert eligible(A1)
    assert eligible("daily-20260301-0000")
    assert not eligible("before-upgrade")

"""What a replication run sends, and from where: the chain of snapshots both sides share.

ZFS gives each snapshot a guid that `zfs send | zfs recv` keeps: a snapshot on the target
with the guid of one on the source is the same snapshot, whatever either is called now, and
an incremental stream can start from it. createtxg (the transaction group that made a
snapshot) orders the snapshots of one side; the two sides' numbers are not comparable.

The first run sends the oldest eligible snapshot in full, then the newer ones incrementally,
so that the target starts with the source's whole history. Later runs send from the newest
snapshot in common (the base) to the newest eligible one. Anything that would destroy data
on the target is refused (engine/errors.py) unless the caller passes the user's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from replication.replications.engine.errors import (
    REPLACE,
    ROLLBACK,
    ChainBroken,
    TargetDiverged,
    TargetHasData,
)
from storage.zfs import naming

# Whether a source snapshot (by its short name) is one the task sends.
Eligible = Callable[[str], bool]


@dataclass(frozen=True)
class SnapStamp:
    """A snapshot as the chain sees it: short name (after the @), guid and createtxg."""

    name: str
    guid: str
    createtxg: int


@dataclass(frozen=True)
class Base:
    """The newest snapshot both sides have, by its name on each (a rename keeps the guid)."""

    source: str
    target: str


@dataclass(frozen=True)
class Step:
    """One `zfs send`: `snapshot` in full (no base), or from `base` (-i; -I with intermediates).

    With `intermediates` the stream also brings every source snapshot between the two.
    """

    snapshot: str
    base: str | None = None
    intermediates: bool = False


@dataclass(frozen=True)
class Plan:
    """What a run does: nothing, a full send (then increments), or increments from `base`.

    `arrives` lists every snapshot the target receives, oldest first. `force` means
    `zfs recv -F`: the target is replaced or rolled back, destroying `discards` (its snapshot
    names); it is set only on an explicit choice, or over an empty target dataset.
    """

    kind: Literal["nothing", "full", "incremental"]
    base: Base | None = None
    steps: tuple[Step, ...] = ()
    arrives: tuple[str, ...] = ()
    force: bool = False
    discards: tuple[str, ...] = ()


def named_by(*schemas: str) -> Eligible:
    """Eligible: the snapshots one of these naming schemas made (a periodic task's, a pattern)."""
    return lambda name: any(naming.matches(schema, name) for schema in schemas)


def by_age(snapshots: Sequence[SnapStamp]) -> list[SnapStamp]:
    """The snapshots of one side, oldest first."""
    return sorted(snapshots, key=lambda snap: snap.createtxg)


def newest_common(source: Sequence[SnapStamp], target: Sequence[SnapStamp]) -> Base | None:
    """The newest source snapshot the target also has (same guid), or None."""
    on_target = {snap.guid: snap.name for snap in target}
    for snap in reversed(by_age(source)):
        if snap.guid in on_target:
            return Base(source=snap.name, target=on_target[snap.guid])
    return None


def plan(
    source: Sequence[SnapStamp],
    target: Sequence[SnapStamp] | None,
    eligible: Eligible,
    *,
    target_written: bool = False,
    choice: str | None = None,
) -> Plan:
    """The plan for one run, or a ReplicationRefused naming what a forced run would destroy.

    `target` is None when the target dataset does not exist. `target_written` says the target
    holds data its newest snapshot does not (ZFS's `written` property is not zero); with no
    snapshots, that it holds any data at all. `choice` is the user's explicit consent (REPLACE
    or ROLLBACK) to the refusal met on an earlier run; it is used only where it applies.
    With nothing new to send, the plan is "nothing" even on a target that moved on: the
    refusal comes with the first run that has something to send.
    """
    if not any(eligible(snap.name) for snap in source):
        return Plan("nothing", base=newest_common(source, target or ()))
    if target is None:
        return _full(source, eligible)
    base = newest_common(source, target)
    if base is None:
        return _no_common(source, target, eligible, target_written, choice)
    return _from_base(source, target, base, eligible, target_written, choice)


def _full(
    source: Sequence[SnapStamp],
    eligible: Eligible,
    discards: Sequence[str] = (),
    force: bool = False,
) -> Plan:
    """The oldest eligible snapshot in full, then the newer eligible ones incrementally."""
    ordered = by_age(source)
    first = next(index for index, snap in enumerate(ordered) if eligible(snap.name))
    steps = (Step(ordered[first].name), *_increments(ordered[first:], eligible))
    return Plan(
        "full",
        steps=steps,
        arrives=_arrivals(steps, ordered),
        force=force,
        discards=tuple(discards),
    )


def _no_common(
    source: Sequence[SnapStamp],
    target: Sequence[SnapStamp],
    eligible: Eligible,
    written: bool,
    choice: str | None,
) -> Plan:
    """A full send when the target is empty or the user chose to replace it; else refused."""
    names = [snap.name for snap in by_age(target)]
    if choice == REPLACE or (not names and not written):
        return _full(source, eligible, discards=names, force=True)
    if not names:
        raise TargetHasData()
    newest = [snap.name for snap in by_age(source) if eligible(snap.name)][-1]
    raise ChainBroken(source_newest=newest, target_newest=names[-1], discards=names)


def _from_base(
    source: Sequence[SnapStamp],
    target: Sequence[SnapStamp],
    base: Base,
    eligible: Eligible,
    written: bool,
    choice: str | None,
) -> Plan:
    """Increments from the common base; refused when the target moved on since that base."""
    ordered = by_age(source)
    after_base = ordered[[snap.name for snap in ordered].index(base.source) :]
    steps = _increments(after_base, eligible)
    if not steps:
        return Plan("nothing", base=base)
    newer = _newer_on_target(target, base)
    if (newer or written) and choice != ROLLBACK:
        raise TargetDiverged(base=base.target, newer=newer, written=written)
    return Plan(
        "incremental",
        base=base,
        steps=steps,
        arrives=_arrivals(steps, ordered),
        force=bool(newer or written),
        discards=newer,
    )


def _newer_on_target(target: Sequence[SnapStamp], base: Base) -> tuple[str, ...]:
    """The target's snapshots made after its copy of the base, oldest first."""
    ordered = by_age(target)
    names = [snap.name for snap in ordered]
    return tuple(names[names.index(base.target) + 1 :])


def _increments(ordered: Sequence[SnapStamp], eligible: Eligible) -> tuple[Step, ...]:
    """Steps from ordered[0] (on both sides) through the eligible source snapshots after it.

    One -I step brings a run of eligible snapshots; a snapshot that is not eligible (a user's
    own) is stepped over with -i, which leaves it out of the stream.
    """
    steps: list[Step] = []
    start, run, skipped = ordered[0].name, list[str](), False
    for snap in ordered[1:]:
        if not eligible(snap.name):
            skipped = True
        elif skipped:
            last = run[-1] if run else start
            steps += [*_run_step(start, run), Step(snap.name, base=last)]
            start, run, skipped = snap.name, [], False
        else:
            run.append(snap.name)
    return (*steps, *_run_step(start, run))


def _run_step(start: str, run: Sequence[str]) -> list[Step]:
    """The one step that brings the run of snapshots after `start` (none for an empty run)."""
    if not run:
        return []
    return [Step(run[-1], base=start, intermediates=len(run) > 1)]


def _arrivals(steps: Sequence[Step], ordered: Sequence[SnapStamp]) -> tuple[str, ...]:
    """Every snapshot the steps bring to the target, oldest first (-I brings those between)."""
    names = [snap.name for snap in ordered]
    arrived: list[str] = []
    for step in steps:
        if step.intermediates and step.base is not None:
            arrived += names[names.index(step.base) + 1 : names.index(step.snapshot)]
        arrived.append(step.snapshot)
    return tuple(arrived)


def protected(plan: Plan) -> Base | None:
    """The snapshot to keep on both sides while this plan runs: its base (None on a first run).

    Pruning on either side must spare it (a hold, or a bookmark on the source) until a newer
    common snapshot exists: without it the next run has nothing to send from.
    """
    return plan.base


def base_after(plan: Plan) -> str | None:
    """The newest common snapshot once every step has run (the same name on both sides).

    The runner protects it, then releases the old base: protection moves forward, step by step.
    """
    if plan.steps:
        return plan.steps[-1].snapshot
    return plan.base.source if plan.base else None

"""Why a replication will not run by itself, in words a user can act on.

Each refusal names the explicit choice that would let the run go ahead (`choice`) and the
target snapshots that choice destroys (`discards`): a task never destroys data on the target
unless the user picked that choice knowing what it costs.
"""

from __future__ import annotations

from collections.abc import Sequence

REPLACE = "replace"  # a full re-send that replaces the target's dataset
ROLLBACK = "rollback"  # the target rolled back to the common base, then an incremental send


class ReplicationRefused(Exception):
    """The run would destroy data on the target; the message says what and how to go ahead."""

    choice: str = ""

    def __init__(self, message: str, discards: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.discards = tuple(discards)


class ChainBroken(ReplicationRefused):
    """The target has snapshots, but none the source also has: no incremental send can start."""

    choice = REPLACE

    def __init__(self, *, source_newest: str, target_newest: str, discards: Sequence[str]) -> None:
        super().__init__(
            "The source and the target have no snapshot in common (the newest on the source is "
            f"{source_newest}, on the target {target_newest}), so nothing can be sent "
            "incrementally. A full re-send would replace the target's dataset and destroy its "
            f"{_count(discards)}; choose it explicitly to go ahead.",
            discards,
        )


class TargetHasData(ReplicationRefused):
    """The target dataset exists and holds data, but no snapshot says it came from the source."""

    choice = REPLACE

    def __init__(self) -> None:
        super().__init__(
            "The target dataset already exists and holds data, but has no snapshots: nothing "
            "shows it came from the source. A full send would replace its contents; choose "
            "it explicitly to go ahead."
        )


class TargetDiverged(ReplicationRefused):
    """The target changed after the newest snapshot both sides have: receiving rolls it back."""

    choice = ROLLBACK

    def __init__(self, *, base: str, newer: Sequence[str], written: bool) -> None:
        changes = [f"it has newer snapshots ({', '.join(newer)})"] if newer else []
        losses = [_those(newer)] if newer else []
        if written:
            changes.append("data was written to it")
            losses.append("the data written since")
        super().__init__(
            f"The target has changed since {base}, the newest snapshot both sides have: "
            f"{' and '.join(changes)}. Receiving needs a rollback of the target to {base}, "
            f"which destroys {' and '.join(losses)}; choose it explicitly to go ahead.",
            newer,
        )


def _count(names: Sequence[str]) -> str:
    """ "1 snapshot" or "3 snapshots"."""
    return f"{len(names)} snapshot" + ("" if len(names) == 1 else "s")


def _those(newer: Sequence[str]) -> str:
    """ "that snapshot" or "those snapshots"."""
    return "that snapshot" if len(newer) == 1 else "those snapshots"

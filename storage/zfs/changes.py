"""Property changes on a dataset or zvol, all or nothing.

A change can take several engine commands (set, then inherit, then grow). When a later one
fails, the earlier ones are put back, so the dataset is as it was and the user is told what
failed: nothing is left half-applied.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence

from storage.zfs import errors as zfs
from storage.zfs.base import PropertyValue, ZfsEngine

log = logging.getLogger(__name__)


def apply_all_or_nothing(
    engine: ZfsEngine,
    name: str,
    to_set: Mapping[str, str],
    to_inherit: Sequence[str],
    *,
    last: Callable[[], None] | None = None,
) -> None:
    """Set, then inherit, then run `last` (a grow); on a ZfsError undo the earlier steps."""
    touched = [*to_set, *to_inherit]
    before = engine.get_properties(name, touched) if touched else {}
    try:
        if to_set:
            engine.set_properties(name, to_set)
        for prop in to_inherit:
            engine.inherit_property(name, prop)
        if last is not None:
            last()
    except zfs.ZfsError:
        _restore(engine, name, before)
        raise


def _restore(engine: ZfsEngine, name: str, before: Mapping[str, PropertyValue]) -> None:
    """Put each property back as it was: its local value, or inherited/default again."""
    local = {prop: pv.value for prop, pv in before.items() if pv.source == "local"}
    with contextlib.suppress(zfs.ZfsError):
        if local:
            engine.set_properties(name, local)
    for prop, pv in before.items():
        if pv.source == "local":
            continue
        try:
            engine.inherit_property(name, prop)
        except zfs.ZfsError:
            # quota, reservation...: not inheritable; their default is a value to set back.
            with contextlib.suppress(zfs.ZfsError):
                engine.set_properties(name, {prop: pv.value})
            log.warning("restored %s of %s by value after a failed change", prop, name)

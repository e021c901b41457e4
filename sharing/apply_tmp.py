"""How every iSCSI write ends: saved in the database and applied to the target, or neither."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction

from sharing.apply import configuration_lock
from sharing.iscsi import runtime

T = TypeVar("T")
M = TypeVar("M", bound=models.Model)


def applied_or_undone(
    change: Callable[[], T],
    apply: Callable[[], object],
    restore: Callable[[], None],
    refused: type[Exception],
    service: str,
) -> T:
    """Run `change`, then `apply` it to the running servers; if they refuse, undo both.

    `service`'s apply lock is held until the commit, so that a boot step or restart of that
    service applies this change rather than the state before it.
    """
    with configuration_lock(service):
        try:
            with transaction.atomic():
                result = change()
                apply()
        except refused as exc:
            # The database rolled back; give the running servers that state again.
            restore()
            raise ValidationError({NON_FIELD_ERRORS: [str(exc)]}) from exc
    return result


def saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply the result to the iSCSI target; if the target refuses, undo both."""
    return applied_or_undone(
        change,
        runtime.apply_configuration,
        runtime.restore_configuration,
        runtime.IscsiApplyError,
        runtime.LOCK,
    )


def in_use(what: str) -> ValidationError:
    """The refusal to delete something a target still uses."""
    return ValidationError(
        {NON_FIELD_ERRORS: [f"This {what} is in use by a target: change it first."]}
    )


def updated(row: M, **fields: object) -> M:
    """Set `fields` on a row, save it and apply: the one shape of every plain edit."""

    def change() -> M:
        for name, value in fields.items():
            setattr(row, name, value)
        row.save()
        return row

    return saved_and_applied(change)

"""How every iSCSI write ends: saved in the database and applied to the target, or neither."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction

from sharing import runtime

T = TypeVar("T")
M = TypeVar("M", bound=models.Model)


def saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply the result to the target; if the target refuses, undo both."""
    try:
        with transaction.atomic():
            result = change()
            runtime.apply_configuration()
    except runtime.IscsiApplyError as exc:
        # The database rolled back; bring the running target back to that state too.
        runtime.restore_configuration()
        raise ValidationError({NON_FIELD_ERRORS: [str(exc)]}) from exc
    return result


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

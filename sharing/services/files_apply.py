"""How every write to accounts and file shares ends: saved and applied, or neither."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction

from sharing import files_runtime

T = TypeVar("T")


def files_saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply the result to the file servers; if they refuse, undo both."""
    try:
        with transaction.atomic():
            result = change()
            files_runtime.apply_configuration()
    except files_runtime.FilesApplyError as exc:
        # The database rolled back; give the servers that state again.
        files_runtime.restore_configuration()
        raise ValidationError({NON_FIELD_ERRORS: [str(exc)]}) from exc
    return result


def refusal(message: str) -> ValidationError:
    """A refusal that concerns the whole object rather than one field."""
    return ValidationError({NON_FIELD_ERRORS: [message]})

"""What every iSCSI write shares: saved and applied to the target, or neither."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import models

from nasui.validation import refusal
from sharing import apply

T = TypeVar("T")
M = TypeVar("M", bound=models.Model)
ISCSI = ("iscsi",)


def saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply the result to the iSCSI target; if the target refuses, undo both."""
    return apply.saved_and_applied(change, services=ISCSI)


def updated(row: M, **fields: object) -> M:
    """Set `fields` on a row, save it and apply it to the target: every plain edit."""
    return apply.updated(row, services=ISCSI, **fields)


def in_use(what: str) -> ValidationError:
    """The refusal to delete something a target still uses."""
    return refusal(f"This {what} is in use by a target: change it first.")

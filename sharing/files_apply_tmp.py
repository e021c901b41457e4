"""How every write to accounts and file shares ends: saved and applied, or neither."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sharing.apply_tmp import applied_or_undone
from sharing.smb import runtime as files_runtime

T = TypeVar("T")


def files_saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply the result to the file servers; if they refuse, undo both."""
    return applied_or_undone(
        change,
        files_runtime.apply_configuration,
        files_runtime.restore_configuration,
        files_runtime.FilesApplyError,
        files_runtime.LOCK,
    )

"""How every write to the sharing configuration ends: saved and applied to its servers, or neither.

A write names the services it concerns ("iscsi", or "smb" and "nfs" for accounts and file
shares); their runtimes (sharing.runtime) apply it inside the write's transaction, and if one
refuses, the transaction rolls back and every server gets the saved state again. Each service
has an apply lock, held from reading the database to applying it, across processes.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import ProtectedError, RestrictedError

from nasui.lib.locks import file_lock
from nasui.validation import refusal
from sharing.runtime import ApplyError, runtime

T = TypeVar("T")
M = TypeVar("M", bound=models.Model)
F = TypeVar("F", bound=Callable[..., Any])
_held = threading.local()


@contextmanager
def configuration_lock(service: str) -> Iterator[None]:
    """Hold `service`'s apply lock (re-entrant within a thread) until the block ends.

    A user's change keeps it until its transaction commits, and a boot step or a restart keeps
    it from reading the database to applying what it read: otherwise a boot step that read the
    database before a change was committed could apply the older state after the change, and
    the target or share the user just made would vanish from the running server.
    """
    names: set[str] = _held.__dict__.setdefault("names", set())
    if service in names:  # a change that restarts the service: already ours
        yield
        return
    with file_lock(Path(settings.DATA_DIR) / "locks" / f"{service}-apply.lock"):
        names.add(service)
        try:
            yield
        finally:
            names.discard(service)


@contextmanager
def services_locked(services: Sequence[str]) -> Iterator[None]:
    """Hold the apply locks of `services` (each once, in one order) until the block ends."""
    with ExitStack() as locks:
        for lock in sorted({runtime(name).lock for name in services}):
            locks.enter_context(configuration_lock(lock))
        yield


def serialized(*services: str) -> Callable[[F], F]:
    """Run a whole write under the apply locks of `services`: its checks (a name still free,
    the next free id) and its save are one step for every panel process, so two writes at the
    same moment get a clear refusal, never a database error (the locks are re-entrant, so the
    write's own save-and-apply inside takes them again freely).
    """

    def wrap(write: F) -> F:
        @functools.wraps(write)
        def run(*args: Any, **kwargs: Any) -> Any:
            with services_locked(services):
                return write(*args, **kwargs)

        return cast(F, run)

    return wrap


def saved_and_applied(change: Callable[[], T], *, services: Sequence[str]) -> T:
    """Run `change`, then apply it to the `services`' servers; if one refuses, undo everything.

    Their apply locks are held until the commit, so that a boot step or restart of one of them
    applies this change rather than the state before it. The refusal becomes a ValidationError
    carrying the server's reason.
    """
    servers = [runtime(name) for name in services]
    with services_locked(services):
        try:
            with transaction.atomic():
                result = change()
                for server in servers:
                    server.apply()
        except ApplyError as exc:
            # The database rolled back; give the running servers that state again.
            for server in servers:
                server.restore()
            raise refusal(str(exc)) from exc
        except (ProtectedError, RestrictedError):
            raise  # "still in use": the write says what uses it
        except IntegrityError as exc:  # a write that did not check under the locks
            raise refusal(f"Another change took this at the same moment: {exc}") from exc
    return result


def updated(row: M, *, services: Sequence[str], **fields: object) -> M:
    """Set `fields` on a row, save it and apply: the one shape of every plain edit."""

    def change() -> M:
        for name, value in fields.items():
            setattr(row, name, value)
        row.save()
        return row

    return saved_and_applied(change, services=services)


# Accounts and file shares concern both file servers: SMB admits the users, NFS maps them.
FILE_SERVICES = ("smb", "nfs")


def files_saved_and_applied(change: Callable[[], T]) -> T:
    """Run `change` and apply it to the file servers (SMB and NFS); if one refuses, undo all."""
    return saved_and_applied(change, services=FILE_SERVICES)

"""One lock per service, held from reading the database to applying it, across processes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from nasui.lib.locks import file_lock

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

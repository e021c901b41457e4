"""Health checks: database, Redis, and when a worker last answered."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection

HEARTBEAT_KEY = "worker-heartbeat"


def record_worker_heartbeat(now: float | None = None) -> None:
    """Store the time a worker last ran a task."""
    cache.set(HEARTBEAT_KEY, now if now is not None else time.time(), timeout=None)


@dataclass(frozen=True)
class Health:
    """What /health/ reports."""

    database: bool
    redis: bool
    worker_seconds_ago: float | None
    worker: bool

    @property
    def ok(self) -> bool:
        """Healthy when every part answers."""
        return self.database and self.redis and self.worker

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form with an overall status."""
        return {"status": "ok" if self.ok else "degraded", **asdict(self)}


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:
        return False


def _last_heartbeat() -> tuple[bool, float | None]:
    try:
        stamp = cache.get(HEARTBEAT_KEY)
    except Exception:
        return False, None
    return True, (time.time() - float(stamp)) if stamp is not None else None


def check_health() -> Health:
    """Probe each dependency once."""
    redis_ok, ago = _last_heartbeat()
    # A worker counts as alive if it answered within three heartbeat periods.
    fresh = ago is not None and ago < 3 * settings.NASUI_HEARTBEAT_SECONDS
    return Health(database=_database_ok(), redis=redis_ok, worker_seconds_ago=ago, worker=fresh)

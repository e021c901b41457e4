"""The system app's Celery tasks: the sub-domains' own, imported so that the worker has them."""

from __future__ import annotations

from system.backup_schedules import tasks as backup_schedules  # noqa: F401
from system.network import tasks as network  # noqa: F401
from system.updates import tasks as updates  # noqa: F401

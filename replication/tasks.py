"""Replication's Celery tasks: the sub-domains' jobs, imported so that the worker registers them."""

from __future__ import annotations

from replication.replications import tasks as replications  # noqa: F401
from replication.restores import tasks as restores  # noqa: F401

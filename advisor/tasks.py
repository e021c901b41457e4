"""The advisor's Celery tasks: the sub-domains' jobs, imported so that the worker registers them."""

from __future__ import annotations

from advisor.benchmarks import tasks as benchmarks  # noqa: F401
from advisor.estimates import tasks as estimates  # noqa: F401

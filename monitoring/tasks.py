"""Monitoring's Celery tasks: the sub-domains' own, imported so that the worker registers them."""

from __future__ import annotations

from monitoring.alerting import tasks as alerting  # noqa: F401
from monitoring.channels import tasks as channels  # noqa: F401
from monitoring.exporter import tasks as exporter  # noqa: F401
from monitoring.metrics import tasks as metrics  # noqa: F401

"""The access app's tasks, gathered so that the worker finds them."""

from access.audit.tasks import audit_prune

__all__ = ["audit_prune"]

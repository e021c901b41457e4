"""Reads of restores: the name a restore takes by default."""

from __future__ import annotations

from replication.models import ReplicationTask


def default_into(task: ReplicationTask) -> str:
    """Beside the original: the source's name with “-restored”."""
    return f"{task.source}-restored"

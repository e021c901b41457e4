"""The replication app."""

from django.apps import AppConfig


class ReplicationConfig(AppConfig):
    """SSH connections to other boxes, and (to come) the tasks replicating over them."""

    name = "replication"
    default_auto_field = "django.db.models.BigAutoField"

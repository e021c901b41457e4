"""The replication app."""

from django.apps import AppConfig


class ReplicationConfig(AppConfig):
    """SSH connections to other boxes, and (to come) the tasks replicating over them."""

    name = "replication"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """A run whose worker died (a power cut, a restart, a restored database) would stay
        "running" and hold its task back for good: the job reaper has such runs closed."""
        from nasui.jobs import on_jobs_reaped
        from replication.replications.services import interrupted_runs_closed

        on_jobs_reaped(interrupted_runs_closed)

"""The advisor app."""

from __future__ import annotations

from django.apps import AppConfig


class AdvisorConfig(AppConfig):
    """The "Try it on my data" app: estimates, settings benchmarks and fio runs."""

    name = "advisor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """A benchmark whose worker process died leaves scratch datasets: the job reaper (every
        few seconds on beat, and when a worker starts) has them destroyed at once."""
        from advisor.benchmarks.services import scratch_cleanup_after
        from nasui.jobs import on_jobs_reaped

        on_jobs_reaped(scratch_cleanup_after)

"""Writes of the core app: API tokens and jobs."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from nasui.celery import send, task_named
from nasui.jobs import announce
from nasui.models import ApiToken, Job, PasswordChangeDue
from nasui.tokens import hash_token_key, new_token_key, token_display_prefix

log = logging.getLogger(__name__)
TOKEN_NAME_MAX = 100


def api_token_create(*, user: User, name: str, read_only: bool = False) -> tuple[ApiToken, str]:
    """Create a token for `user` (acting with their role, or read-only); return it with its
    secret, which is never shown again."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": "Give the token a name, e.g. the script that uses it."})
    if len(name) > TOKEN_NAME_MAX:
        raise ValidationError({"name": f"At most {TOKEN_NAME_MAX} characters."})
    if ApiToken.objects.filter(user=user, name=name, revoked_at__isnull=True).exists():
        raise ValidationError({"name": "You already have an active token with this name."})
    key = new_token_key()
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=token_display_prefix(key),
        key_hash=hash_token_key(key),
        read_only=read_only,
    )
    return token, key


def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of the user's own tokens; it stops working at once."""
    try:
        token = ApiToken.objects.get(pk=token_id, user=user)
    except ApiToken.DoesNotExist as exc:
        raise ValidationError({"token": "No such token."}) from exc
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def job_start(
    *,
    kind: str,
    title: str,
    task: str,
    user: User | AnonymousUser | None = None,
    cancellable: bool = False,
    **arguments: Any,
) -> Job:
    """Record a job and hand it to a worker once the row is committed.

    `task` is the Celery task's name ("storage.pool_create"): services start their jobs by
    name, so they never import the tasks, which sit above them and call them.
    """
    task_named(task)  # NotRegistered (a KeyError) for a name no app defines: before any row
    job = Job.objects.create(
        kind=kind,
        title=title,
        arguments=arguments,
        created_by=user if isinstance(user, User) else None,
        cancellable=cancellable,
    )
    # on_commit: the worker must find the row when it picks the message up.
    # announced first: a worker quick to start it must not be heard before the job exists
    transaction.on_commit(lambda: announce(job.pk))
    transaction.on_commit(lambda: _queue(job, task, arguments))
    return job


def _queue(job: Job, task: str, arguments: dict[str, Any]) -> None:
    """Hand the job to a worker; if the queue cannot take it, the job has failed, and says why."""
    try:
        send(task, job.pk, **arguments)
    except (OSError, OperationalError) as exc:
        log.warning("job %s (%s) could not be queued: %s", job.pk, task, exc)
        error = f"The job could not be queued: Redis, the job queue, did not answer ({exc})."
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED, error=error, finished_at=timezone.now()
        )
        job.refresh_from_db()


def job_cancel(*, job: Job) -> Job:
    """Ask a running or queued job to stop; it stops at its next step and cleans up."""
    if job.is_finished:
        raise ValidationError(
            {"job": [f"This job has already {job.get_status_display().lower()}."]}
        )
    if not job.cancellable:
        raise ValidationError({"job": ["This job cannot be cancelled once started."]})
    Job.objects.filter(pk=job.pk).update(cancel_requested=True)
    announce(job.pk)
    job.refresh_from_db()
    return job


def password_change_require(*, user: User) -> None:
    """The machine chose `user`'s password: they must choose their own before anything else."""
    PasswordChangeDue.objects.get_or_create(user=user)


def password_changed(*, user: User) -> None:
    """`user` chose a password of their own: the panel and the API open to them."""
    PasswordChangeDue.objects.filter(user=user).delete()

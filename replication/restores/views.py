"""Restore pages: bring a task's copy back, or test that it can be (one click)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.pages import current_user, form_page, start_job
from replication.models import ReplicationTask
from replication.replications.selectors import task_get
from replication.restores import selectors, services
from replication.restores.forms import RestoreForm


def _page(task: ReplicationTask) -> str:
    return reverse("replication:task", args=[task.pk])


def restore(request: HttpRequest, pk: int) -> HttpResponse:
    """The restore form; a valid one starts the restore as a job, shown on the task's page."""
    task = task_get(pk)
    form = RestoreForm(request.POST or None, initial={"into": selectors.default_into(task)})
    pull = task.direction == ReplicationTask.Direction.PULL and task.connection is not None
    context = {
        "title": f"Restore {task.target}",
        "task": task,
        "back_to": task.connection.host if pull and task.connection else "this box",
        "cancel": _page(task),
    }
    return form_page(
        request,
        form,
        save=lambda data: services.restore_start(
            task=task, into=data["into"], snapshot=data["snapshot"], user=current_user(request)
        ),
        template="replication/restore.html",
        context=context,
        done=lambda job: f"{job.title}: started.",
        then=lambda _job: _page(task),
    )


@require_POST
def restore_test(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a test restore; its result is a row of the task's history."""
    task = task_get(pk)
    start_job(
        request,
        lambda: services.restore_test_start(task=task, user=current_user(request)),
        f"Test restore of {task.target} started.",
    )
    return redirect(_page(task))

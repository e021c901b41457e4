"""Replication task pages: list, add, the task (its settings, runs and refusal), run now, consent
to a refusal, edit, delete."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.pages import current_user, form_page, posted, start_job
from replication.connections.selectors import connection_queryset
from replication.models import ReplicationTask
from replication.replications import selectors, services
from replication.replications.forms import CONSEQUENCES, ConfirmForm, ConsentForm, TaskForm
from replication.replications.runtime import HOLD_PREFIX

FORM = "replication/task_form.html"
HISTORY = 50  # runs shown on the task's page (the API pages through all of them)


def _page(task: ReplicationTask) -> str:
    """The task's own page."""
    return reverse("replication:task", kwargs={"pk": task.pk})


def _form_context(title: str, submit: str, cancel: str) -> dict[str, Any]:
    """The form page's words, and this box's datasets offered while a name is typed."""
    datasets = selectors.local_datasets()
    return {"title": title, "submit": submit, "cancel": cancel, "datasets": datasets}


def task_list(request: HttpRequest) -> HttpResponse:
    """Every task: what goes where, when, and how its last run ended."""
    context = {"rows": selectors.task_rows(), "has_connections": connection_queryset().exists()}
    return render(request, "replication/tasks.html", context)


def task_create(request: HttpRequest) -> HttpResponse:
    """Add a task; it first runs at its trigger (or by hand)."""
    local = not connection_queryset().exists()
    initial = {"direction": "local" if local else "push", "trigger": "manual"}
    form = TaskForm(request.POST or None, initial=initial)
    return form_page(
        request,
        form,
        save=lambda _: services.replication_task_create(**form.task_fields()),
        template=FORM,
        context=_form_context("Add a replication task", "Add task", reverse("replication:tasks")),
        done=lambda t: f"Replication task {t.name} added.",
        then=_page,
    )


def task_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The task in words, its running job, its refusal if any, and its runs newest first."""
    task = selectors.task_get(pk)
    jobs = selectors.running_jobs(task)
    context = {
        "task": task,
        "trigger": selectors.trigger_text(task),
        "schema": selectors.schema_of(task),
        "next_runs": selectors.next_runs(task) if task.enabled else [],
        "runs": selectors.runs_of(task, HISTORY),
        "last_test": selectors.last_test(task),
        "jobs": jobs,
        "job_finished": not jobs,
    }
    return render(request, "replication/task.html", context)


def task_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a task; the next run uses the change."""
    task = selectors.task_get(pk)
    form = TaskForm(request.POST or None, initial=TaskForm.initial_of(task))
    return form_page(
        request,
        form,
        save=lambda _: services.replication_task_update(task=task, **form.task_fields()),
        template=FORM,
        context=_form_context(f"Edit {task.name}", "Save", _page(task)),
        done=lambda t: f"Replication task {t.name} saved.",
        then=_page,
    )


@require_POST
def task_run(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the task now, as a job; its page shows the job's progress."""
    task = selectors.task_get(pk)
    start_job(
        request,
        lambda: services.replication_task_start(task=task, user=current_user(request)),
        f"Replication of {task.source} to {task.target} started.",
    )
    return redirect(_page(task))


def task_consent(request: HttpRequest, pk: int) -> HttpResponse:
    """Say what the refusal's choice destroys on the target; agree only to that, typed."""
    task = selectors.task_get(pk)
    if not task.refusal_choice:
        messages.info(request, "The last run of this task was not refused: nothing to agree to.")
        return redirect(_page(task))
    choice = ReplicationTask.Choice(task.refusal_choice)
    form = ConsentForm(posted(request), initial={"choice": choice.value}, target=task.target)
    context = {
        "title": f"{choice.label} ({task.name})",
        "task": task,
        "intro": CONSEQUENCES[choice].format(target=task.target),
        "submit": choice.label,
        "danger": True,
        "cancel": _page(task),
    }
    return form_page(
        request,
        form,
        save=lambda data: services.replication_task_consent(task=task, choice=data["choice"]),
        template="replication/task_confirm.html",
        context=context,
        done=lambda t: (
            f"Agreed: the next run of {t.name} will {choice.label.lower()}. "
            "Run it now, or let its trigger start it."
        ),
        then=_page,
    )


def _delete(task: ReplicationTask) -> ReplicationTask:
    """Delete through the service; the task object still names what was deleted."""
    services.replication_task_delete(task=task)
    return task


def _other_side_words(task: ReplicationTask) -> str:
    if task.direction == ReplicationTask.Direction.LOCAL:
        return "both copies are on this box."
    return (
        f"on the other box it stays until released there (zfs release {HOLD_PREFIX}{task.pk} "
        "on that snapshot), so that a new task could go on from it."
    )


def task_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then delete the task (what it copied stays on the target)."""
    task = selectors.task_get(pk)
    context = {
        "title": f"Delete the replication task {task.name}",
        "task": task,
        "intro": f"The task stops copying {task.source} to {task.target}. What it copied stays "
        f"on {task.target}. Its hold on the last snapshot sent is released on this box; "
        f"{_other_side_words(task)}",
        "submit": "Delete task",
        "danger": True,
        "cancel": _page(task),
    }
    return form_page(
        request,
        ConfirmForm(posted(request)),
        save=lambda _: _delete(task),
        template="replication/task_confirm.html",
        context=context,
        done=f"Replication task {task.name} deleted; its copies stay on {task.target}.",
        then="replication:tasks",
    )

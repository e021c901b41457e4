"""Periodic snapshot task pages: list, add, edit, delete."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from nasui.pages import form_page, posted
from storage.datasets import selectors as dataset_selectors
from storage.models import SnapshotTask
from storage.pages import ConfirmOnlyForm
from storage.schedule import PRESETS
from storage.snapshot_tasks import selectors, services
from storage.snapshot_tasks.forms import SnapshotTaskForm
from storage.snapshot_tasks.services import FIELDS

TEMPLATE = "storage/snapshot_task_form.html"
# What the preset select fills in the browser (the form applies the same on save).
PRESETS_JSON = json.dumps(PRESETS)


def _datasets() -> list[str]:
    """Every dataset and zvol a task can snapshot."""
    return [d.name for d in dataset_selectors.dataset_list()]


def task_list(request: HttpRequest) -> HttpResponse:
    """Every task with its schedule, lifetime, last result and next run."""
    return render(request, "storage/snapshot_tasks.html", {"rows": selectors.task_rows()})


def task_create(request: HttpRequest) -> HttpResponse:
    """Add a task; a preset fills its schedule."""
    initial = {"dataset": request.GET.get("dataset", "")}
    form = SnapshotTaskForm(request.POST or None, initial=initial, datasets=_datasets())
    return form_page(
        request,
        form,
        save=lambda _: services.snapshot_task_create(**form.task_fields()),
        template=TEMPLATE,
        context={
            "title": "Add a periodic snapshot task",
            "submit": "Add task",
            "presets_json": PRESETS_JSON,
        },
        done=lambda task: f"Periodic snapshots of {task.dataset} scheduled.",
        then="storage:snapshot-tasks",
    )


def task_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a task; it takes effect at the next beat."""
    task = selectors.task_get(pk)
    initial = {field: getattr(task, field) for field in FIELDS}
    initial["preset"] = selectors.preset_of(task)
    form = SnapshotTaskForm(request.POST or None, initial=initial, datasets=_datasets())
    return form_page(
        request,
        form,
        save=lambda _: services.snapshot_task_update(task=task, **form.task_fields()),
        template=TEMPLATE,
        context={
            "title": f"Edit the periodic snapshots of {task.dataset}",
            "submit": "Save",
            "presets_json": PRESETS_JSON,
        },
        done=lambda saved: f"Periodic snapshots of {saved.dataset} saved.",
        then="storage:snapshot-tasks",
    )


def _delete(task: SnapshotTask) -> SnapshotTask:
    """Delete through the service; the task object still names what was deleted."""
    services.snapshot_task_delete(task=task)
    return task


def task_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then delete the task (its snapshots stay)."""
    task = selectors.task_get(pk)
    context = {
        "title": f"Delete the periodic snapshots of {task.dataset}",
        "intro": f"The task stops taking snapshots of {task.dataset} ({task.naming_schema}). "
        "The snapshots it already made stay: they are no longer pruned, destroy them on the "
        "Snapshots page when you no longer need them.",
        "submit": "Delete task",
        "danger": True,
        "cancel": reverse("storage:snapshot-tasks"),
    }
    return form_page(
        request,
        ConfirmOnlyForm(posted(request)),
        save=lambda _: _delete(task),
        template="storage/snapshots_form.html",
        context=context,
        done=f"Periodic snapshot task of {task.dataset} deleted; its snapshots stay.",
        then="storage:snapshot-tasks",
    )

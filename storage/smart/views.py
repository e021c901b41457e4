"""SMART pages: run a self-test now, and the scheduled self-tests of the Disks page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.pages import form_page
from storage.disks import selectors as disk_selectors
from storage.models import SmartTestTask
from storage.pages import ConfirmForm
from storage.smart import selectors, services
from storage.smart.forms import SmartTaskForm

FORM_TEMPLATE = "storage/smart_task_form.html"


@require_POST
def smart_test(request: HttpRequest, name: str) -> HttpResponse:
    """Start a short or long self-test of one disk."""
    kind = request.POST.get("kind", "")
    try:
        services.smart_test_start(disk=name, kind=kind)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{kind.capitalize()} self-test of {name} started.")
    return redirect("storage:disks")


def _form(request: HttpRequest, initial: dict[str, Any]) -> SmartTaskForm:
    names = [d.name for d in disk_selectors.disk_list()]
    return SmartTaskForm(request.POST or None, initial=initial, disk_names=names)


def smart_task_create(request: HttpRequest) -> HttpResponse:
    """Schedule a self-test (weekly short test by default)."""
    defaults = SmartTestTask()
    initial = {field: getattr(defaults, field) for field in services.FIELDS}
    return form_page(
        request,
        _form(request, initial),
        save=lambda data: services.smart_task_create(**data),
        template=FORM_TEMPLATE,
        context={"task": None},
        done=lambda task: f"Scheduled {task.kind} self-test saved.",
        then="storage:disks",
    )


def smart_task_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a scheduled self-test."""
    task = get_object_or_404(SmartTestTask, pk=pk)
    initial = {field: getattr(task, field) for field in services.FIELDS}
    return form_page(
        request,
        _form(request, initial),
        save=lambda data: services.smart_task_update(task=task, **data),
        template=FORM_TEMPLATE,
        context={"task": task, "next_run": services.next_run(task)},
        done="Scheduled self-test saved.",
        then="storage:disks",
    )


def smart_task_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then remove a scheduled self-test."""
    task = get_object_or_404(SmartTestTask, pk=pk)
    context = {
        "name": str(task),
        "verb": "Delete",
        "explanation": "The disks are no longer tested on this schedule. Past results stay "
        "in each disk's own self-test log.",
        "cancel": reverse("storage:disks"),
    }
    return form_page(
        request,
        ConfirmForm(request.POST if request.method == "POST" else None),
        save=lambda data: services.smart_task_delete(task=task),
        template="storage/confirm.html",
        context=context,
        done="Scheduled self-test deleted.",
        then="storage:disks",
    )


def disks(request: HttpRequest) -> HttpResponse:
    """Whole disks, what uses them, their SMART health and temperature, scheduled self-tests."""
    rows = selectors.disks_with_smart()
    context = {
        "rows": rows,
        "temperature_chart": selectors.temperature_chart(rows),
        "smart_tasks": services.smart_task_rows(),
        "test_kinds": SmartTestTask.KINDS,
    }
    return render(request, "storage/disks.html", context)

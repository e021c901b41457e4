"""The scrub schedule page of a pool."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from nasui.pages import form_page
from storage.models import ScrubTask
from storage.scrub import services
from storage.scrub.forms import ScrubTaskForm


def _task_or_404(pool: str) -> ScrubTask:
    """The pool's scrub task, or a 404 page when there is no such pool."""
    try:
        return services.scrub_task_get(pool)
    except ValidationError as exc:
        raise Http404(f"No pool named {pool}") from exc


def scrub_schedule(request: HttpRequest, name: str) -> HttpResponse:
    """Edit when `name` is checked and how old its last scrub may get."""
    task = _task_or_404(name)
    initial = {field: getattr(task, field) for field in services.FIELDS}
    form = ScrubTaskForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> ScrubTask:
        return services.scrub_task_update(task=task, **data)

    return form_page(
        request,
        form,
        save=save,
        template="storage/scrub_schedule.html",
        context={"pool": name, "task": task, "next_check": services.next_check(task)},
        done=f"Scrub schedule of {name} saved.",
        then=reverse("storage:pool", kwargs={"name": name}),
    )

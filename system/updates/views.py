"""The update page: the release and slots, an update from a file on a dataset, the roll-back."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from nasui.pages import current_user, form_page, start_job
from system.updates import selectors, services
from system.updates.forms import UpdateForm


def update_page(request: HttpRequest) -> HttpResponse:
    """GET: the status and the form; POST: check the file and start the update's job."""
    return form_page(
        request,
        UpdateForm(request.POST or None),
        save=lambda data: services.update_start(user=current_user(request), **data),
        template="system/update.html",
        context={"status": selectors.update_status()},
        done=lambda job: f"{job.title}: started. The box restarts into it once it is written.",
        then="system:update",
    )


@require_POST
def update_roll_back(request: HttpRequest) -> HttpResponse:
    """Restart into the release in the other slot."""
    start_job(
        request, services.update_roll_back, "Going back to the other release: the box restarts."
    )
    return redirect("system:update")

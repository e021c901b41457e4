"""Pool pages: overview, disks, create, detail, scrub, export, import, destroy."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.forms_util import add_service_errors
from nasui.templatetags.humanize_bytes import format_bytes
from storage import selectors, services
from storage.engine import is_sandbox
from storage.forms import ConfirmForm, ImportForm, PoolCreateForm
from storage.views.common import current_user, running_storage_jobs
from storage.zfs import errors as zfs


def index(request: HttpRequest) -> HttpResponse:
    """Every pool with its capacity, health and ratios."""
    context = {
        "pools": selectors.pool_list(),
        "jobs": running_storage_jobs(),
        "sandbox": is_sandbox(),
    }
    return render(request, "storage/index.html", context)


def disks(request: HttpRequest) -> HttpResponse:
    """Whole disks, their size and what uses them."""
    return render(request, "storage/disks.html", {"disks": selectors.disk_list()})


def _disk_choices() -> list[tuple[str, str]]:
    return [
        (d.name, f"{d.name} · {format_bytes(d.size)}{f' · {d.model}' if d.model else ''}")
        for d in selectors.disk_list()
        if d.free
    ]


def pool_create(request: HttpRequest) -> HttpResponse:
    """Pick a name, a layout and free disks; creation runs as a job."""
    form = PoolCreateForm(request.POST or None, disk_choices=_disk_choices())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            job = services.pool_create(
                name=data["name"],
                layout=data["layout"],
                disks=data["disks"],
                width=data["width"],
                cache=data["cache"],
                log=data["log"],
                spares=data["spares"],
                user=current_user(request),
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"{job.title}: started. Its progress shows below.")
            return redirect("storage:index")
    status = 400 if form.errors else 200
    return render(request, "storage/pool_create.html", {"form": form}, status=status)


def pool_detail(request: HttpRequest, name: str) -> HttpResponse:
    """Health, vdev tree, capacity, ratios, dedup table and the datasets of one pool."""
    try:
        detail = selectors.pool_detail(name)
    except zfs.PoolNotFound as exc:
        raise Http404(f"No pool named {name}") from exc
    context = {
        "detail": detail,
        "pool": detail.pool,
        "rows": selectors.dataset_tree(name),
        "jobs": running_storage_jobs(),
    }
    return render(request, "storage/pool_detail.html", context)


@require_POST
def pool_scrub(request: HttpRequest, name: str) -> HttpResponse:
    """Start a scrub job."""
    try:
        job = services.pool_scrub(name=name, user=current_user(request))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{job.title}: started.")
    return redirect("storage:pool", name=name)


def pool_export(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm, then export the pool."""
    return _confirmed_action(
        request,
        name=name,
        action=lambda form: services.pool_export(name=name),
        verb="Export",
        explanation="Exporting unmounts every dataset and hides the pool until it is imported "
        "again (here or on another machine). No data is deleted.",
        done=f"Pool {name} exported.",
    )


def pool_destroy(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm by typing the name, then destroy the pool in a job."""
    return _confirmed_action(
        request,
        name=name,
        action=lambda form: services.pool_destroy(
            name=name, confirm=form.cleaned_data["confirm"], user=current_user(request)
        ),
        verb="Destroy",
        explanation="Destroying the pool deletes every dataset, zvol and file on it, for good.",
        done=f"Destroying pool {name}: its progress shows below.",
        typed=True,
    )


def _confirmed_action(
    request: HttpRequest,
    *,
    name: str,
    action: object,
    verb: str,
    explanation: str,
    done: str,
    typed: bool = False,
) -> HttpResponse:
    """A confirmation page whose POST runs `action(form)` and goes back to the overview."""
    form = ConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            action(form)  # type: ignore[operator]
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect("storage:index")
    context = {
        "form": form,
        "name": name,
        "verb": verb,
        "explanation": explanation,
        "typed": typed,
        "cancel": reverse("storage:pool", kwargs={"name": name}),
    }
    return render(request, "storage/confirm.html", context, status=400 if form.errors else 200)


def pool_import(request: HttpRequest) -> HttpResponse:
    """Pools found on the disks that can be imported."""
    form = ImportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.pool_import(
                name_or_guid=form.cleaned_data["pool"], new_name=form.cleaned_data["new_name"]
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Pool {form.cleaned_data['pool']} imported.")
            return redirect("storage:index")
    context = {"form": form, "candidates": selectors.importable_pools()}
    return render(request, "storage/pool_import.html", context, status=400 if form.errors else 200)

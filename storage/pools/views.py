"""Pool pages: overview, create, detail, scrub, export, import, destroy."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from nasui.models import Job
from nasui.pages import current_user, form_page
from storage.datasets import selectors as dataset_selectors
from storage.disks.forms import free_disk_choices
from storage.engine import is_sandbox
from storage.pages import confirm_page
from storage.pools import selectors, services
from storage.pools.forms import ImportForm, PoolCreateForm
from storage.scrub import services as scrub_services
from storage.zfs import errors as zfs


def index(request: HttpRequest) -> HttpResponse:
    """Every pool with its capacity, health and ratios."""
    context = {
        "cards": selectors.pool_cards(),
        "jobs": running_storage_jobs(),
        "sandbox": is_sandbox(),
    }
    return render(request, "storage/index.html", context)


def pool_create(request: HttpRequest) -> HttpResponse:
    """Pick a name, a layout and free disks; creation runs as a job."""
    form = PoolCreateForm(request.POST or None, disk_choices=free_disk_choices())
    return form_page(
        request,
        form,
        save=lambda data: services.pool_create(**data, user=current_user(request)),
        template="storage/pool_create.html",
        done=lambda job: f"{job.title}: started. Its progress shows below.",
        then="storage:index",
    )


def pool_capacity(request: HttpRequest) -> HttpResponse:
    """The create form's usable-space line for the layout and disks ticked so far (htmx)."""
    width = request.GET.get("width", "").strip()
    preview = selectors.capacity_preview(
        layout=request.GET.get("layout", ""),
        disks=request.GET.getlist("disks"),
        width=int(width) if width.isdigit() and int(width) > 0 else None,
    )
    return render(request, "storage/_capacity.html", {"preview": preview})


def pool_detail(request: HttpRequest, name: str) -> HttpResponse:
    """Health, vdev tree, capacity, ratios, dedup table and the datasets of one pool."""
    try:
        detail = selectors.pool_detail(name)
    except zfs.PoolNotFound as exc:
        raise Http404(f"No pool named {name}") from exc
    context = {
        "detail": detail,
        "pool": detail.pool,
        "tree": dataset_selectors.dataset_tree(name),
        "jobs": running_storage_jobs(),
        "scrub_task": (scrub_task := scrub_services.scrub_task_of(detail.pool.name)),
        "next_check": scrub_services.next_check(scrub_task),
    }
    return render(request, "storage/pool_detail.html", context)


@require_POST
def pool_scrub(request: HttpRequest, name: str) -> HttpResponse:
    """Start a scrub job."""
    try:
        job = scrub_services.pool_scrub(name=name, user=current_user(request))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{job.title}: started.")
    return redirect("storage:pool", name=name)


def pool_export(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm, then export the pool."""
    return confirm_page(
        request,
        name=name,
        action=lambda data: services.pool_export(name=name),
        verb="Export",
        explanation="Exporting unmounts every dataset and hides the pool until it is imported "
        "again (here or on another machine). No data is deleted.",
        done=f"Pool {name} exported.",
        then="storage:index",
    )


def pool_destroy(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm by typing the name, then destroy the pool in a job."""
    return confirm_page(
        request,
        name=name,
        action=lambda data: services.pool_destroy(
            name=name, confirm=data["confirm"], user=current_user(request)
        ),
        verb="Destroy",
        explanation="Destroying the pool deletes every dataset, zvol and file on it, for good.",
        done=f"Destroying pool {name}: its progress shows below.",
        then="storage:index",
        typed=True,
    )


def pool_import(request: HttpRequest) -> HttpResponse:
    """Pools found on the disks that can be imported."""
    form = ImportForm(request.POST or None)
    return form_page(
        request,
        form,
        save=lambda data: services.pool_import(
            name_or_guid=data["pool"], new_name=data["new_name"]
        ),
        template="storage/pool_import.html",
        # Passed uncalled: the template calls it only when the page is drawn, so a successful
        # import does not scan the disks first.
        context={"candidates": selectors.importable_pools},
        done=lambda _: f"Pool {form.cleaned_data['pool']} imported.",
        then="storage:index",
    )


def running_storage_jobs() -> list[Job]:
    """Storage jobs that have not finished, for the live job strip on storage pages."""
    return list(Job.objects.filter(kind__startswith="pool.").exclude(status__in=Job.FINISHED)[:10])

"""The disk page of a pool (offline, online, replace, attach, detach, remove) and growing it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.models import Job
from nasui.pages import current_user, form_page
from storage.disks import services
from storage.disks.forms import GrowForm, NewDiskForm, free_disk_choices
from storage.engine import get_engine
from storage.pages import confirm_page, pool_url
from storage.zfs import errors as zfs
from storage.zfs.base import PoolStatus
from storage.zfs.devices import find_leaf


def _status(pool: str) -> PoolStatus:
    try:
        return get_engine().pool_status(pool)
    except zfs.PoolNotFound as exc:
        raise Http404(f"No pool named {pool}") from exc


def disk_page(request: HttpRequest, name: str, disk: str) -> HttpResponse:
    """What can be done with one disk of the pool, given where it sits."""
    status = _status(name)
    try:
        section, parent, leaf = find_leaf(status, disk)
    except zfs.DeviceNotFound as exc:
        raise Http404(f"No disk {disk} in pool {name}") from exc
    spares = [s.name for s in status.spares if s.state == "AVAIL"]
    free = free_disk_choices()
    choices = [(s, f"{s} (hot spare of {name})") for s in spares] + free
    context = {
        "pool": name,
        "disk": leaf,
        "section": section,
        "parent": parent,
        "replace_form": NewDiskForm(choices=choices),
        "attach_form": NewDiskForm(choices=free),
        "can_attach": section == "data" and (parent is None or parent.type == "mirror"),
        "can_detach": parent is not None and parent.type in ("mirror", "replacing", "spare"),
        "can_replace": section in ("data", "logs"),
        "is_aux": section in ("spares", "cache", "logs"),
    }
    return render(request, "storage/pool_disk.html", context)


def _run(request: HttpRequest, name: str, disk: str, action: Any, done: str) -> HttpResponse:
    """Run a disk action; its refusal (on the disk's page) or its outcome (on the pool's)."""
    try:
        result = action()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("storage:pool-disk", name=name, disk=disk)
    messages.success(request, f"{result.title}: started." if isinstance(result, Job) else done)
    return redirect(pool_url(name))


# verb, what it means, what the pool page then says: each asked for on a confirmation page.
DISK_ACTIONS = {
    "offline": (
        services.pool_disk_offline,
        "Take offline",
        "The pool keeps running on its other copies, with less redundancy (or none) until the "
        "disk is back online or replaced. ZFS refuses when this disk holds the last copy.",
        "{disk} is offline.",
    ),
    "online": (
        services.pool_disk_online,
        "Bring online",
        "ZFS resilvers what the disk missed while it was offline.",
        "{disk} is back online.",
    ),
    "detach": (
        services.pool_disk_detach,
        "Detach",
        "The disk leaves its mirror for good: the mirror keeps one copy fewer.",
        "{disk} was detached from {pool}.",
    ),
    "remove": (
        services.pool_aux_remove,
        "Remove",
        "The spare, log or cache disk leaves the pool; the pool's data stays where it is.",
        "{disk} was removed from {pool}.",
    ),
}


def disk_action(request: HttpRequest, name: str, disk: str, action: str) -> HttpResponse:
    """Offline, online, detach or remove a disk, after a confirmation page."""
    if action not in DISK_ACTIONS:
        raise Http404(f"No disk action {action}")
    call, verb, explanation, done = DISK_ACTIONS[action]

    def run(_: dict[str, Any]) -> None:
        call(pool=name, disk=disk, user=current_user(request))

    return confirm_page(
        request,
        name=disk,
        verb=verb,
        explanation=explanation,
        action=run,
        done=done.format(disk=disk, pool=name),
        then=pool_url(name),
        cancel=reverse("storage:pool-disk", kwargs={"name": name, "disk": disk}),
    )


@require_POST
def disk_with_new(request: HttpRequest, name: str, disk: str, action: str) -> HttpResponse:
    """Replace or attach: the new disk comes from the page's select."""
    calls = {"replace": services.pool_disk_replace, "attach": services.pool_disk_attach}
    if action not in calls:
        raise Http404(f"No disk action {action}")
    new_disk = request.POST.get("new_disk", "")
    if not new_disk:
        messages.error(request, "Pick the new disk.")
        return redirect("storage:pool-disk", name=name, disk=disk)
    call = calls[action]
    user = current_user(request)
    return _run(
        request, name, disk, lambda: call(pool=name, disk=disk, new_disk=new_disk, user=user), ""
    )


def pool_grow(request: HttpRequest, name: str) -> HttpResponse:
    """Add a data vdev, spares, a log or a cache to the pool."""
    status = _status(name)
    form = GrowForm(request.POST or None, choices=free_disk_choices())

    def save(data: dict[str, Any]) -> str:
        user = current_user(request)
        if data["kind"] == "data":
            services.pool_vdev_add(
                pool=name, layout=data["layout"] or "", disks=data["disks"], user=user
            )
        else:
            services.pool_aux_add(
                pool=name, kind=data["kind"], disks=data["disks"], mirror=data["mirror"], user=user
            )
        return f"Added {', '.join(data['disks'])} to {name}."

    context = {"pool": name, "status": status}
    return form_page(
        request,
        form,
        save=save,
        template="storage/pool_grow.html",
        context=context,
        done=lambda text: text,
        then=pool_url(name),
    )

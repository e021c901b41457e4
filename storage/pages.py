"""Small helpers shared by the storage pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from nasui.lib.units import format_bytes
from nasui.models import Job
from nasui.pages import form_page
from storage.datasets import selectors
from storage.datasets.forms import ConfirmForm
from storage.disks import selectors as disk_selectors
from storage.zfs import errors as zfs
from storage.zfs.base import Dataset


def current_user(request: HttpRequest) -> User:
    """The logged-in user (pages are behind the login middleware)."""
    assert isinstance(request.user, User)
    return request.user


def running_storage_jobs() -> list[Job]:
    """Storage jobs that have not finished, for the live job strip on storage pages."""
    return list(Job.objects.filter(kind__startswith="pool.").exclude(status__in=Job.FINISHED)[:10])


def dataset_or_404(name: str) -> Dataset:
    """A dataset or zvol, or a 404 page."""
    try:
        return selectors.dataset_get(name)
    except zfs.DatasetNotFound as exc:
        raise Http404(f"No dataset or zvol named {name}") from exc


def free_disk_choices() -> list[tuple[str, str]]:
    """Disks no pool or file system uses, labelled with size and model, for the selects."""
    return [
        (d.name, f"{d.name} · {format_bytes(d.size)}{f' · {d.model}' if d.model else ''}")
        for d in disk_selectors.disk_list()
        if d.free
    ]


def pool_url(name: str) -> str:
    """The page of the pool that holds `name` (a pool, dataset or zvol)."""
    return reverse("storage:pool", kwargs={"name": name.split("/", 1)[0]})


def confirm_page(
    request: HttpRequest,
    *,
    name: str,
    verb: str,
    explanation: str,
    action: Callable[[dict[str, Any]], object],
    done: str,
    then: str,
    typed: bool = False,
    recursive: bool = False,
    cancel: str = "",
) -> HttpResponse:
    """Ask before `action(confirm form data)` runs on `name`; Cancel goes back to its pool
    (or to `cancel`)."""
    context = {
        "name": name,
        "verb": verb,
        "explanation": explanation,
        "typed": typed,
        "recursive": recursive,
        "cancel": cancel or pool_url(name),
    }
    form = ConfirmForm(request.POST or None)
    return form_page(
        request,
        form,
        save=action,
        template="storage/confirm.html",
        context=context,
        done=done,
        then=then,
    )

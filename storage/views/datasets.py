"""Dataset and zvol pages: create, edit, delete, and the dedup estimate."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from nasui.forms_util import add_service_errors
from storage import selectors, services
from storage import validation as v
from storage.forms import (
    ConfirmForm,
    DatasetCreateForm,
    DatasetPropertiesForm,
    ZvolCreateForm,
    ZvolPropertiesForm,
)
from storage.views.common import dataset_or_404, filesystem_names
from storage.zfs.base import Dataset

# The inheritable properties the edit forms show as "inherit" unless set on the dataset itself.
FILESYSTEM_PROPERTIES = ("compression", "dedup", "recordsize", "atime")
VOLUME_PROPERTIES = ("compression", "dedup")


def _pool_page(name: str) -> HttpResponse:
    return redirect("storage:pool", name=name.split("/", 1)[0])


def _render_form(
    request: HttpRequest, form: Any, *, title: str, kind: str, dataset: Dataset | None = None
) -> HttpResponse:
    context = {"form": form, "title": title, "kind": kind, "dataset": dataset}
    return render(request, "storage/dataset_form.html", context, status=400 if form.errors else 200)


def _saved_or_form(
    request: HttpRequest,
    form: Any,
    *,
    save: Callable[[dict[str, Any]], Dataset],
    done: str,
    title: str,
    kind: str,
    dataset: Dataset | None = None,
) -> HttpResponse:
    """A valid POST saves through the service and goes to the pool page; else the form again."""
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done.format(name=saved.name))
            return _pool_page(saved.name)
    return _render_form(request, form, title=title, kind=kind, dataset=dataset)


def dataset_create(request: HttpRequest) -> HttpResponse:
    """A new file system with compression, dedup and the other properties."""
    parent = request.GET.get("parent", "")
    form = DatasetCreateForm(
        request.POST or None, parents=filesystem_names(), initial={"parent": parent}
    )
    return _saved_or_form(
        request,
        form,
        save=lambda data: services.dataset_create(**data),
        done="Dataset {name} created.",
        title="Add dataset",
        kind="dataset",
    )


def _initial_properties(dataset: Dataset) -> dict[str, Any]:
    """Form values of an existing dataset's local settings."""
    wanted = VOLUME_PROPERTIES if dataset.is_volume else FILESYSTEM_PROPERTIES
    props = selectors.dataset_properties(dataset.name, wanted)
    return {
        "compression": props.get("compression", "inherit"),
        "dedup": props.get("dedup", "inherit"),
        "recordsize": props.get("recordsize", ""),
        "atime": props.get("atime", "inherit"),
        "quota": v.format_size(dataset.quota) if dataset.quota else "",
        "reservation": v.format_size(dataset.reservation) if dataset.reservation else "",
        "comment": dataset.comment,
        "size": v.format_size(dataset.volsize) if dataset.volsize else "",
    }


def dataset_edit(request: HttpRequest, name: str) -> HttpResponse:
    """Change a file system's properties."""
    dataset = dataset_or_404(name)
    if dataset.is_volume:
        return redirect("storage:zvol-edit", name=name)
    form = DatasetPropertiesForm(request.POST or None, initial=_initial_properties(dataset))
    return _saved_or_form(
        request,
        form,
        save=lambda data: services.dataset_update(name=name, **data),
        done="Dataset {name} updated.",
        title=f"Edit {name}",
        kind="dataset",
        dataset=dataset,
    )


def zvol_create(request: HttpRequest) -> HttpResponse:
    """A new zvol: size, block size, sparse or thick, compression and dedup."""
    parent = request.GET.get("parent", "")
    form = ZvolCreateForm(
        request.POST or None, parents=filesystem_names(), initial={"parent": parent}
    )
    return _saved_or_form(
        request,
        form,
        save=lambda data: services.zvol_create(**data),
        done="Zvol {name} created.",
        title="Add zvol",
        kind="zvol",
    )


def zvol_edit(request: HttpRequest, name: str) -> HttpResponse:
    """Grow a zvol or change its compression, dedup and comment."""
    dataset = dataset_or_404(name)
    if not dataset.is_volume:
        return redirect("storage:dataset-edit", name=name)
    form = ZvolPropertiesForm(request.POST or None, initial=_initial_properties(dataset))
    return _saved_or_form(
        request,
        form,
        save=lambda data: services.zvol_update(name=name, **data),
        done="Zvol {name} updated.",
        title=f"Edit {name}",
        kind="zvol",
        dataset=dataset,
    )


def dataset_delete(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm by typing the name, then destroy a dataset or zvol."""
    dataset = dataset_or_404(name)
    form = ConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if dataset.is_volume:
                services.zvol_destroy(name=name, confirm=data["confirm"])
            else:
                services.dataset_destroy(
                    name=name, confirm=data["confirm"], recursive=data["recursive"]
                )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"{name} destroyed.")
            return _pool_page(name)
    what = "zvol" if dataset.is_volume else "dataset"
    context = {
        "form": form,
        "name": name,
        "verb": "Destroy",
        "typed": True,
        "recursive": not dataset.is_volume,
        "explanation": f"Destroying the {what} deletes its data for good.",
        "cancel": reverse("storage:pool", kwargs={"name": name.split("/", 1)[0]}),
    }
    return render(request, "storage/confirm.html", context, status=400 if form.errors else 200)


def dedup_estimate(request: HttpRequest) -> HttpResponse:
    """The dedup RAM estimate as a fragment, shown when a form's dedup choice is on."""
    dedup = request.GET.get("dedup", "off")
    context: dict[str, Any] = {"show": dedup in ("on", "verify")}
    if context["show"]:
        parent = request.GET.get("parent", "") or request.GET.get("name", "")
        pool = parent.split("/", 1)[0] or None
        try:
            data_bytes = v.parse_size(request.GET.get("size") or "1T")
        except ValidationError:
            data_bytes = 1024**4
        block = int(request.GET.get("volblocksize") or request.GET.get("recordsize") or 0)
        block = block or v.DEFAULT_RECORDSIZE
        context["estimate"] = selectors.dedup_estimate(
            pool=pool, data_bytes=data_bytes, block_size=block
        )
    return render(request, "storage/dedup_estimate.html", context)

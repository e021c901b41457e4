"""Dataset and zvol pages: create, edit, delete, and the dedup estimate."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from nasui.lib.units import format_size
from nasui.pages import form_page
from storage.datasets import selectors, services
from storage.datasets.forms import (
    DatasetCreateForm,
    DatasetPropertiesForm,
    ZvolCreateForm,
    ZvolPropertiesForm,
)
from storage.ownership import selectors as ownership_selectors
from storage.pages import confirm_page, pool_url
from storage.zfs import errors as zfs
from storage.zfs.base import Dataset

# The inheritable properties the edit forms show as "inherit" unless set on the dataset itself.
FILESYSTEM_PROPERTIES = ("compression", "dedup", "recordsize", "atime", "acltype", "sync")
VOLUME_PROPERTIES = ("compression", "dedup", "sync")


def _dataset_form_page(
    request: HttpRequest,
    form: Any,
    *,
    save: Callable[[dict[str, Any]], Dataset | services.DatasetSaved],
    done: str,
    title: str,
    kind: str,
    dataset: Dataset | None = None,
) -> HttpResponse:
    """The add or edit page of a dataset or zvol; once saved, says `done` and shows its pool."""
    context: dict[str, Any] = {
        "title": title,
        "kind": kind,
        "dataset": dataset,
        "read_at": _read_at(dataset),
    }
    if dataset is not None and not dataset.is_volume:
        context["access"] = _access(dataset)
    return form_page(
        request,
        form,
        save=save,
        template="storage/dataset_form.html",
        context=context,
        done=lambda saved: f"{kind.capitalize()} {saved.name} {done}{_job_note(saved)}.",
        then=lambda saved: pool_url(saved.name),
    )


def _access(dataset: Dataset) -> dict[str, Any] | None:
    """The folder's present owner, group and mode (stat of the mountpoint), for the page."""
    found = ownership_selectors.mountpoint_ownership(dataset.mountpoint)
    return ownership_selectors.describe(found) if found else None


def _job_note(saved: Any) -> str:
    """Where to follow the recursive apply, when one started."""
    return (
        ": owner and mode inside follow in a job (see Jobs)" if getattr(saved, "job", None) else ""
    )


def _read_at(dataset: Dataset | None) -> datetime | None:
    """When the dataset's space figures were read, for the page's time format."""
    return datetime.fromtimestamp(dataset.figures_read_at, tz=UTC) if dataset else None


def _create_page(
    request: HttpRequest, form_class: Any, *, kind: str, save: Callable[..., Dataset]
) -> HttpResponse:
    """Add a dataset or zvol under the file system named in ?parent= (preselected)."""
    initial = {"parent": request.GET.get("parent", ""), "owner": "root", "group": "root"}
    form = form_class(request.POST or None, parents=selectors.filesystem_names(), initial=initial)
    return _dataset_form_page(
        request,
        form,
        save=lambda data: save(**data),
        done="created",
        title=f"Add {kind}",
        kind=kind,
    )


def _edit_page(
    request: HttpRequest,
    name: str,
    form_class: Any,
    *,
    volume: bool,
    save: Callable[..., Any],
) -> HttpResponse:
    """Change a dataset's or zvol's local properties; the other kind goes to its own page."""
    dataset = dataset_or_404(name)
    if dataset.is_volume != volume:
        other = "storage:zvol-edit" if dataset.is_volume else "storage:dataset-edit"
        return redirect(other, name=name)
    initial = _initial_properties(dataset)
    wanted = VOLUME_PROPERTIES if volume else FILESYSTEM_PROPERTIES
    extra: dict[str, Any] = {"inherited": selectors.inherited_values(name, wanted)}
    if not volume:
        ownership = ownership_selectors.mountpoint_ownership(dataset.mountpoint)
        extra.update(ownership=ownership, folder=ownership is not None)
        initial.update(ownership_selectors.describe(ownership) if ownership else {})
    form = form_class(request.POST or None, initial=initial, **extra)
    return _dataset_form_page(
        request,
        form,
        save=lambda data: save(name=name, **data),
        done="updated",
        title=f"Edit {name}",
        kind="zvol" if dataset.is_volume else "dataset",
        dataset=dataset,
    )


def dataset_create(request: HttpRequest) -> HttpResponse:
    """A new file system with compression, dedup and the other properties."""
    return _create_page(request, DatasetCreateForm, kind="dataset", save=services.dataset_create)


def _initial_properties(dataset: Dataset) -> dict[str, Any]:
    """Form values of an existing dataset's local settings."""
    wanted = VOLUME_PROPERTIES if dataset.is_volume else FILESYSTEM_PROPERTIES
    props = selectors.dataset_properties(dataset.name, wanted)
    return {
        "compression": props.get("compression", "inherit"),
        "dedup": props.get("dedup", "inherit"),
        "recordsize": props.get("recordsize", ""),
        "atime": props.get("atime", "inherit"),
        "acltype": props.get("acltype", "inherit"),
        "sync": props.get("sync", "inherit"),
        "quota": format_size(dataset.quota) if dataset.quota else "",
        "reservation": format_size(dataset.reservation) if dataset.reservation else "",
        "comment": dataset.comment,
        "size": format_size(dataset.volsize) if dataset.volsize else "",
    }


def dataset_edit(request: HttpRequest, name: str) -> HttpResponse:
    """Change a file system's properties."""
    return _edit_page(
        request,
        name,
        DatasetPropertiesForm,
        volume=False,
        save=lambda **data: services.dataset_update(user=request.user, **data),
    )


def zvol_create(request: HttpRequest) -> HttpResponse:
    """A new zvol: size, block size, sparse or thick, compression and dedup."""
    return _create_page(request, ZvolCreateForm, kind="zvol", save=services.zvol_create)


def zvol_edit(request: HttpRequest, name: str) -> HttpResponse:
    """Grow a zvol or change its compression, dedup and comment."""
    return _edit_page(request, name, ZvolPropertiesForm, volume=True, save=services.zvol_update)


def _destroy(name: str, *, volume: bool, data: dict[str, Any]) -> None:
    """Destroy a zvol, or a file system (with its children when asked)."""
    if volume:
        services.zvol_destroy(name=name, confirm=data["confirm"])
    else:
        services.dataset_destroy(
            name=name,
            confirm=data["confirm"],
            recursive=data["recursive"],
            release_holds=data["release_holds"],
        )


def dataset_delete(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm by typing the name, then destroy a dataset or zvol."""
    volume = dataset_or_404(name).is_volume
    return confirm_page(
        request,
        name=name,
        verb="Destroy",
        typed=True,
        recursive=not volume,
        explanation=f"Destroying the {'zvol' if volume else 'dataset'} deletes its data for good.",
        action=lambda data: _destroy(name, volume=volume, data=data),
        done=f"{name} destroyed.",
        then=pool_url(name),
    )


def dataset_or_404(name: str) -> Dataset:
    """A dataset or zvol, or a 404 page."""
    try:
        return selectors.dataset_get(name)
    except zfs.DatasetNotFound as exc:
        raise Http404(f"No dataset or zvol named {name}") from exc

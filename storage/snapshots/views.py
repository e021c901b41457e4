"""Snapshot pages: list, take, destroy (several or a range), roll back, clone, compare."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from nasui.pages import form_page, posted
from storage.datasets import selectors as dataset_selectors
from storage.snapshot_tasks import selectors as snapshot_task_selectors
from storage.snapshots import selectors, services
from storage.snapshots.forms import (
    CloneForm,
    RollbackForm,
    SnapshotCreateForm,
    SnapshotDestroyForm,
    SnapshotRangeForm,
)
from storage.zfs.base import Snapshot

T = TypeVar("T")
FORM = "storage/snapshots_form.html"


@dataclass(frozen=True)
class SnapshotRow:
    """A snapshot as the list shows it."""

    snapshot: Snapshot
    created: datetime
    task: str  # the task's label, or "" for a manual snapshot
    task_url: str  # its edit page, or "" when the task is gone
    is_volume: bool


def list_url(dataset: str | None = None) -> str:
    """The snapshot list, filtered to one dataset when given."""
    url = reverse("storage:snapshots")
    return f"{url}?{urlencode({'dataset': dataset})}" if dataset else url


def created_at(snapshot: Snapshot) -> datetime:
    """When the snapshot was taken, in the panel's time zone."""
    return timezone.localtime(datetime.fromtimestamp(snapshot.created, tz=UTC))


def _snapshot_or_404(name: str) -> Snapshot:
    """One snapshot by full name, or a 404 page."""
    try:
        return selectors.snapshot_get(name)
    except ValidationError as exc:
        raise Http404(" ".join(exc.messages)) from exc


def _volumes() -> set[str]:
    """Names of the zvols (they have no files to compare)."""
    return {d.name for d in dataset_selectors.dataset_list(volumes=True)}


def _dataset_names() -> list[str]:
    """Every dataset and zvol, the choices of the pages' selects."""
    return [d.name for d in dataset_selectors.dataset_list()]


def _moved(call: Callable[[], T], *keys: str) -> T:
    """`call()`, with errors on `keys` (fields the form does not show) put on the whole form."""
    try:
        return call()
    except ValidationError as exc:
        errors = {NON_FIELD_ERRORS if k in keys else k: m for k, m in exc.message_dict.items()}
        raise ValidationError(errors) from exc


def _row(snapshot: Snapshot, labels: dict[str, str], volumes: set[str]) -> SnapshotRow:
    """One line of the list; a deleted task's snapshots still say which task made them."""
    task = snapshot.task
    url = reverse("storage:snapshot-task-edit", args=[task]) if task in labels else ""
    label = labels.get(task, f"#{task} (deleted)" if task else "")
    return SnapshotRow(snapshot, created_at(snapshot), label, url, snapshot.dataset in volumes)


def snapshot_list(request: HttpRequest) -> HttpResponse:
    """Snapshots of every dataset, or of the one picked in the select."""
    names = _dataset_names()
    dataset = request.GET.get("dataset") or None
    if dataset is not None and dataset not in names:
        messages.warning(request, f"There is no dataset or zvol named “{dataset}”: showing all.")
        dataset = None
    labels, volumes = snapshot_task_selectors.task_labels(), _volumes()
    rows = [_row(s, labels, volumes) for s in selectors.snapshot_list(dataset)]
    context = {"rows": rows, "datasets": names, "dataset": dataset}
    return render(request, "storage/snapshots.html", context)


def snapshot_create(request: HttpRequest) -> HttpResponse:
    """Take a snapshot now."""
    initial = {"dataset": request.GET.get("dataset", "")}
    form = SnapshotCreateForm(request.POST or None, initial=initial, datasets=_dataset_names())
    context = {"title": "Take a snapshot", "submit": "Take snapshot", "cancel": list_url()}
    return form_page(
        request,
        form,
        save=lambda data: services.snapshot_create(**data),
        template=FORM,
        context=context,
        done=lambda made: f"Snapshot {made.name} taken.",
        then=lambda made: list_url(made.dataset),
    )


def snapshot_destroy(request: HttpRequest) -> HttpResponse:
    """Confirm, then destroy the snapshots of one dataset ticked on the list."""
    picked = request.GET.getlist("snapshot")
    datasets = {name.partition("@")[0] for name in picked}
    if request.method != "POST" and len(datasets) != 1:
        messages.error(request, "Tick one or more snapshots of one dataset to destroy them.")
        return redirect(list_url())
    dataset = request.POST.get("dataset", "") if request.method == "POST" else datasets.pop()
    initial = {"dataset": dataset, "names": [name.partition("@")[2] for name in picked]}
    form = SnapshotDestroyForm(request.POST or None, initial=initial)
    listed = form["names"].value() or []
    context = {
        "title": f"Destroy snapshots of {dataset}",
        "intro": "These snapshots are destroyed for good; the space only they hold is freed. "
        "The dataset's current data is not touched.",
        "items": [f"{dataset}@{name}" for name in listed],
        "submit": f"Destroy {len(listed)} snapshot{'s' if len(listed) != 1 else ''}",
        "danger": True,
        "cancel": list_url(dataset),
    }
    return form_page(
        request,
        form,
        save=lambda data: _moved(
            lambda: services.snapshot_destroy(dataset=dataset, names=data["names"]),
            "dataset",
        ),
        template=FORM,
        context=context,
        done=lambda count: f"{count} snapshot{'s' if count != 1 else ''} of {dataset} destroyed.",
        then=list_url(dataset),
    )


def snapshot_destroy_range(request: HttpRequest) -> HttpResponse:
    """Destroy every snapshot of a dataset from one to another, oldest first."""
    dataset = request.POST.get("dataset") or request.GET.get("dataset", "")
    try:
        names = [s.short_name for s in selectors.snapshot_list(dataset)]
    except ValidationError as exc:
        raise Http404(" ".join(exc.messages)) from exc
    initial = {"dataset": dataset, "first": names[0] if names else "", "last": (names or [""])[-1]}
    form = SnapshotRangeForm(request.POST or None, initial=initial, names=names)
    context = {
        "title": f"Destroy a range of snapshots of {dataset}",
        "intro": "Every snapshot from the first to the last one picked (both included) is "
        "destroyed for good. Nothing is destroyed if one of them is held or cloned.",
        "submit": "Destroy the range",
        "danger": True,
        "cancel": list_url(dataset),
    }
    return form_page(
        request,
        form,
        save=lambda data: _moved(
            lambda: services.snapshot_destroy_range(
                dataset=dataset, first=data["first"], last=data["last"]
            ),
            "names",
            "dataset",
        ),
        template=FORM,
        context=context,
        done=lambda count: f"{count} snapshot{'s' if count != 1 else ''} of {dataset} destroyed.",
        then=list_url(dataset),
    )


def snapshot_rollback(request: HttpRequest, name: str) -> HttpResponse:
    """Confirm, naming the newer snapshots that would go, then roll the dataset back."""
    snapshot = _snapshot_or_404(name)
    newer = [s.name for s in selectors.newer_than(snapshot)]
    form = RollbackForm(posted(request))
    context = {
        "title": f"Roll {snapshot.dataset} back to {snapshot.short_name}",
        "intro": f"{snapshot.dataset} returns to how it was at "
        f"{created_at(snapshot):%Y-%m-%d %H:%M:%S}: every change made since then is lost.",
        "items": newer,
        "items_intro": "These newer snapshots would be destroyed too:",
        "submit": "Roll back",
        "danger": True,
        "cancel": list_url(snapshot.dataset),
        "hide": [] if newer else ["destroy_newer"],
    }

    def save(data: dict[str, Any]) -> list[str]:
        """Roll back; a refusal about the snapshot itself goes on the whole form."""
        return _moved(
            lambda: services.snapshot_rollback(snapshot=name, destroy_newer=data["destroy_newer"]),
            "snapshot",
        )

    return form_page(
        request,
        form,
        save=save,
        template=FORM,
        context=context,
        done=lambda gone: (
            f"{snapshot.dataset} rolled back to {snapshot.short_name}"
            + (f"; destroyed {', '.join(gone)}." if gone else ".")
        ),
        then=list_url(snapshot.dataset),
    )


def clone_default(snapshot: Snapshot) -> str:
    """pool/<dataset>-clone: a free-looking name next to the pool's root."""
    pool, _, _ = snapshot.dataset.partition("/")
    return f"{pool}/{snapshot.dataset.rsplit('/', 1)[-1]}-clone"


def snapshot_clone(request: HttpRequest, name: str) -> HttpResponse:
    """A new writable dataset or zvol from the snapshot."""
    snapshot = _snapshot_or_404(name)
    form = CloneForm(request.POST or None, initial={"target": clone_default(snapshot)})
    context = {
        "title": f"Clone {snapshot.name}",
        "intro": "A clone is a new dataset or zvol that starts with the snapshot's data and "
        "shares its blocks: it takes no space until it is changed. While it exists, the "
        "snapshot cannot be destroyed.",
        "submit": "Clone",
        "cancel": list_url(snapshot.dataset),
    }
    return form_page(
        request,
        form,
        save=lambda data: _moved(
            lambda: services.snapshot_clone(snapshot=name, target=data["target"]),
            "snapshot",
        ),
        template=FORM,
        context=context,
        done=lambda target: f"Clone {target} created from {name}.",
        then=lambda target: reverse("storage:pool", kwargs={"name": target.split("/", 1)[0]}),
    )


def snapshot_diff(request: HttpRequest, name: str) -> HttpResponse:
    """What changed in a file system since the snapshot."""
    snapshot = _snapshot_or_404(name)
    try:
        entries, problem = selectors.snapshot_diff(name), ""
    except ValidationError as exc:
        entries, problem = [], " ".join(exc.messages)
    context = {"snapshot": snapshot, "entries": entries, "problem": problem,
               "back": list_url(snapshot.dataset)}  # fmt: skip
    return render(request, "storage/snapshots_diff.html", context)

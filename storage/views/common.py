"""Small helpers shared by the storage pages."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest

from nasui.models import Job
from storage import selectors
from storage.zfs import errors as zfs


def current_user(request: HttpRequest) -> User:
    """The logged-in user (pages are behind the login middleware)."""
    assert isinstance(request.user, User)
    return request.user


def running_storage_jobs() -> list[Job]:
    """Storage jobs that have not finished, for the live job strip on storage pages."""
    return list(Job.objects.filter(kind__startswith="pool.").exclude(status__in=Job.FINISHED)[:10])


def filesystem_names() -> list[str]:
    """Every file system (pool roots included): the places new datasets and zvols can go."""
    return [d.name for d in selectors.dataset_list(volumes=False)]


def dataset_or_404(name: str) -> selectors.Dataset:
    """A dataset or zvol, or a 404 page."""
    try:
        return selectors.dataset_get(name)
    except zfs.DatasetNotFound as exc:
        raise Http404(f"No dataset or zvol named {name}") from exc

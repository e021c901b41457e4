"""The form-page flow of every section: show, validate, save through a service, go on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from nasui.forms import add_service_errors

T = TypeVar("T")
# A fixed text, or one made from what `save` returned (e.g. the new dataset's full name).
About = str | Callable[[T], str]


def _text(about: About[T], saved: T) -> str:
    """The fixed text, or the one made from the saved object."""
    return about if isinstance(about, str) else about(saved)


def form_page(
    request: HttpRequest,
    form: forms.Form,
    *,
    save: Callable[[dict[str, Any]], T],
    template: str,
    done: About[T],
    then: About[T],
    context: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """GET shows `template`; a valid POST calls `save`, says `done` and redirects to `then`.

    `then` is a URL name without arguments or a URL; it and `done` may instead be functions of
    what `save` returned. A service's ValidationError lands on the form's fields and the page
    comes back with status 400, as does an invalid form.
    """
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _text(done, saved))
            return redirect(_text(then, saved))
    page = {**(context or {}), "form": form}
    return render(request, template, page, status=400 if form.errors else 200)


def current_user(request: HttpRequest) -> User:
    """The logged-in user (pages are behind the login middleware)."""
    assert isinstance(request.user, User)
    return request.user


def posted(request: HttpRequest) -> Any:
    """The POST data, even when empty (an unticked box is still an answer), or None on GET."""
    return request.POST if request.method == "POST" else None


# The tag of a "…started" message: it goes away once its job has finished (static/js/nasui.js
# removes it on the job-finished event; a page showing a finished job leaves it out).
JOB_STARTED = "job-started"


def job_started(request: HttpRequest, text: str) -> None:
    """Say a job started, for as long as it runs."""
    messages.success(request, text, extra_tags=JOB_STARTED)


def start_job(request: HttpRequest, start: Callable[[], object], started: str) -> None:
    """A button that starts a job: say it started, or the service's refusal, in a message."""
    try:
        start()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return
    job_started(request, started)

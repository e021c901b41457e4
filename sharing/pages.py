"""The sharing section's form and delete pages: the project's form flow on sharing's templates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse

from nasui import pages

# The file-sharing pages (accounts, SMB, NFS, the wizard) all lead back to the files overview.
FILES = "sharing:files"


def form_page(
    request: HttpRequest,
    form: forms.Form,
    *,
    save: Callable[[dict[str, Any]], Any],
    title: str,
    done: pages.About[Any],
    intro: str = "",
    back: str = "sharing:index",
) -> HttpResponse:
    """A form on sharing/form.html; once `save` succeeds, `done` shows on the `back` page."""
    return pages.form_page(
        request,
        form,
        save=save,
        template="sharing/form.html",
        context={"title": title, "intro": intro, "back": back},
        done=done,
        then=back,
    )


def delete_page(
    request: HttpRequest,
    *,
    what: str,
    delete: Callable[[], None],
    warning: str = "",
    back: str = "sharing:index",
) -> HttpResponse:
    """GET asks for confirmation; POST deletes through the service; a refusal shows on the page."""
    # A form without fields, bound on every POST (even an empty one), carries the refusal.
    form = forms.Form(request.POST if request.method == "POST" else None)
    return pages.form_page(
        request,
        form,
        save=lambda data: delete(),
        template="sharing/confirm.html",
        context={"what": what, "warning": warning, "back": back},
        done=f"{what} deleted.",
        then=back,
    )

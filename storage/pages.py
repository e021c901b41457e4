"""Small helpers shared by the storage pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from nasui.forms import StyledForm
from nasui.pages import form_page


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


class ConfirmForm(StyledForm):
    """Type the name of what is about to be destroyed."""

    confirm = forms.CharField(label="Type the name to confirm", required=False)
    recursive = forms.BooleanField(
        required=False, label="Also destroy everything inside it (children and snapshots)"
    )
    release_holds = forms.BooleanField(
        required=False,
        label="Also release the holds on its snapshots",
        help_text="A hold keeps a snapshot that a replication task sends from next; "
        "its copy on the other side stays.",
    )


class ConfirmOnlyForm(StyledForm):
    """A confirmation with nothing to fill in: the button is the answer."""

"""The form-page pattern every sharing object uses: show, validate, call a service, go back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from nasui.forms_util import add_service_errors


def form_page(
    request: HttpRequest,
    form: forms.Form,
    *,
    save: Callable[[dict[str, Any]], object],
    title: str,
    done: str,
    intro: str = "",
) -> HttpResponse:
    """GET shows the form; a valid POST calls `save`; errors land on their fields."""
    if request.method == "POST" and form.is_valid():
        try:
            save(form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect("sharing:index")
    context = {"form": form, "title": title, "intro": intro}
    return render(request, "sharing/form.html", context, status=400 if form.errors else 200)


def delete_page(
    request: HttpRequest, *, what: str, delete: Callable[[], None], warning: str = ""
) -> HttpResponse:
    """GET asks for confirmation; POST deletes through the service."""
    error = ""
    if request.method == "POST":
        try:
            delete()
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            messages.success(request, f"{what} deleted.")
            return redirect("sharing:index")
    context = {"what": what, "warning": warning, "error": error}
    return render(request, "sharing/confirm.html", context, status=400 if error else 200)

"""Helpers that put service ValidationErrors onto forms, so pages show them by their field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


def form_field(form: forms.Form, key: str) -> str | None:
    """The form field a service's error key means: "name", or "groups.portal" -> "portal"."""
    for candidate in (key, key.rsplit(".", 1)[-1]):
        if candidate in form.fields:
            return candidate
    return None


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Attach each message to its field, or to the form when the field is not on it."""
    for key, messages in exc.message_dict.items():
        target = form_field(form, key)
        for message in messages:
            if target is None and key != NON_FIELD_ERRORS:
                # A field the form does not show: say which, in words, not the internal key.
                message = f"{key.replace('_', ' ').replace('.', ', ')}: {message}"
            form.add_error(target, message)

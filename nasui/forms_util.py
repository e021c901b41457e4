"""Helpers that put service ValidationErrors onto forms, so pages show them by their field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Attach each message to its field, or to the form when the field is not on it."""
    for field, messages in exc.message_dict.items():
        target = field if field in form.fields else None
        for message in messages:
            if target is None and field != NON_FIELD_ERRORS:
                message = f"{field}: {message}"
            form.add_error(target, message)

"""The two shapes of a refusal every service raises: one field's, or the whole object's."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


def fail(field: str, message: str) -> ValidationError:
    """A ValidationError for one field: forms show it by that field, the API under its name."""
    return ValidationError({field: [message]})


def refusal(message: str) -> ValidationError:
    """A refusal that concerns the whole object rather than one field."""
    return ValidationError({NON_FIELD_ERRORS: [message]})

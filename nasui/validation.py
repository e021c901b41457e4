"""The two shapes of a refusal every service raises (one field's, the whole object's), and
the input rules several apps share."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.lib.net import normalize_ip


def fail(field: str, message: str) -> ValidationError:
    """A ValidationError for one field: forms show it by that field, the API under its name."""
    return ValidationError({field: [message]})


def refusal(message: str) -> ValidationError:
    """A refusal that concerns the whole object rather than one field."""
    return ValidationError({NON_FIELD_ERRORS: [message]})


def validate_address(text: str, field: str = "addresses") -> str:
    """A listen address: IPv4 or IPv6 (0.0.0.0 and :: listen everywhere), normalised."""
    try:
        return normalize_ip(text)
    except ValueError as exc:
        raise fail(field, f"“{text}” is not an IPv4 or IPv6 address.") from exc

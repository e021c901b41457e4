"""One error body for every API failure: {"detail", "code", "fields"}."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from storage.zfs import errors as zfs
from storage.zfs.errors import ZfsError

NON_FIELD = "non_field_errors"
# DRF's key and Django's ("__all__", a service's refusal): neither names a field to prefix.
WHOLE = (NON_FIELD, NON_FIELD_ERRORS)


class StorageUnavailable(exceptions.APIException):
    """ZFS failed outside any input check (module missing, command timed out...)."""

    status_code = 503
    default_code = "storage_unavailable"


class BodyTooLarge(exceptions.APIException):
    """The request body is over DATA_UPLOAD_MAX_MEMORY_SIZE."""

    status_code = 413
    default_code = "too_large"
    default_detail = "The request body is too large."


def _flatten(detail: Any) -> list[str]:
    """All messages in a DRF detail structure, in order."""
    if isinstance(detail, dict):
        return [m for value in detail.values() for m in _flatten(value)]
    if isinstance(detail, list):
        return [m for value in detail for m in _flatten(value)]
    return [str(detail)]


def _field_errors(detail: Any) -> dict[str, list[str]]:
    """Messages grouped by field name; errors with no field go under non_field_errors."""
    if isinstance(detail, dict):
        return {str(k): _flatten(v) for k, v in detail.items()}
    return {NON_FIELD: _flatten(detail)}


def _from_engine(exc: ZfsError) -> exceptions.APIException:
    """A name that does not exist is a 404 and a malformed one a 400: clients and monitors
    read 503 as an outage, so it is kept for an engine that really is unavailable."""
    if isinstance(exc, zfs.PoolNotFound | zfs.DatasetNotFound):
        return exceptions.NotFound(f"Not found: {exc.message}")
    if isinstance(exc, zfs.InvalidProperty):
        return exceptions.ValidationError({"name": [exc.message]})
    return StorageUnavailable(f"The storage engine reported an error: {exc.message}")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Let DRF build the response, then reshape its body; service ValidationErrors become 400."""
    if isinstance(exc, RequestDataTooBig):
        exc = BodyTooLarge()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, ZfsError):
        exc = _from_engine(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = _field_errors(exc.detail)
        first = next(iter(fields.items()))
        summary = first[1][0] if first[0] in WHOLE else f"{first[0]}: {first[1][0]}"
        response.data = {"detail": summary, "code": "invalid", "fields": fields}
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {
            "detail": " ".join(_flatten(exc.detail)),
            "code": codes if isinstance(codes, str) else "error",
            "fields": {},
        }
    if response.status_code == status.HTTP_401_UNAUTHORIZED:
        response["WWW-Authenticate"] = 'Token realm="api"'
    return response

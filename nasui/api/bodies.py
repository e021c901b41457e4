"""Request bodies in: the check every write endpoint of the API starts with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


def validated(
    serializer_class: type[serializers.Serializer[Any]], data: Mapping[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """`data` checked by `serializer_class`, as a plain dict; a 400 answer when it is wrong."""
    body = serializer_class(data=data, **kwargs)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)

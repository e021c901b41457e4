"""ViewSets over plain lists (ZFS objects, not rows), paginated like the model-backed ones."""

from __future__ import annotations

from typing import Any

from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings


class ListViewSet(viewsets.ViewSet):
    """A ViewSet over a plain list, paginated like the model-backed ones."""

    def paginated(self, request: Request, items: list[Any], serializer: type) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        response: Response = paginator.get_paginated_response(serializer(page, many=True).data)
        return response

    @property
    def pagination_class(self) -> Any:
        return api_settings.DEFAULT_PAGINATION_CLASS

"""The audit log through the API: GET /api/access/audit/ with the page's filters."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets

from access.audit import selectors
from access.audit.serializers import AuditEntrySerializer, AuditQuerySerializer
from nasui.api.bodies import validated


@extend_schema(parameters=[AuditQuerySerializer])
class AuditEntryViewSet(mixins.ListModelMixin, viewsets.GenericViewSet[Any]):
    """The audit log, newest first; a bad filter is refused naming it."""

    serializer_class = AuditEntrySerializer

    def get_queryset(self) -> QuerySet[Any]:
        data = validated(AuditQuerySerializer, self.request.query_params)
        return selectors.entries(
            selectors.AuditFilter(
                text=data["q"],
                username=data["user"],
                result=data["result"],
                since=data["since"],
                until=data["until"],
            )
        )

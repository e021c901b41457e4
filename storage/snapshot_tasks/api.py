"""Periodic snapshot tasks through the API: /api/storage/snapshot-tasks/."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework import mixins, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from storage.models import SnapshotTask
from storage.snapshot_tasks import selectors, serializers, services


class SnapshotTaskViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[SnapshotTask],
):
    """Periodic snapshot tasks; writes go through the services (each error on its field)."""

    serializer_class = serializers.SnapshotTaskSerializer

    def get_queryset(self) -> QuerySet[SnapshotTask]:
        """Every task."""
        return selectors.task_queryset()

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Save a new task; its first run is its next scheduled slot."""
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        task = services.snapshot_task_create(**body.validated_data)
        return Response(self.get_serializer(task).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change a task (PATCH: only the fields given); it applies from the next beat."""
        task = self.get_object()
        body = self.get_serializer(task, data=request.data, partial=kwargs.get("partial", False))
        body.is_valid(raise_exception=True)
        task = services.snapshot_task_update(task=task, **body.validated_data)
        return Response(self.get_serializer(task).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete the task; the snapshots it made stay."""
        services.snapshot_task_delete(task=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

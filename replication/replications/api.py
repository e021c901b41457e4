"""Replication tasks through the API: /api/replication/tasks/ (run, consent, runs)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from replication.models import ReplicationTask
from replication.replications import selectors, serializers, services


class ReplicationTaskViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[ReplicationTask],
):
    """Replication tasks; writes go through the services (each error on its field)."""

    serializer_class = serializers.ReplicationTaskSerializer
    # PATCH only: a task changes field by field.
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[ReplicationTask]:
        """Every task."""
        return selectors.task_queryset()

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Save a new task; it first runs at its trigger (or by hand)."""
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        task = services.replication_task_create(**body.validated_data)
        return Response(self.get_serializer(task).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change the fields given; the next run uses them."""
        task = self.get_object()
        body = self.get_serializer(task, data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        task = services.replication_task_update(task=task, **body.validated_data)
        return Response(self.get_serializer(task).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Delete the task; what it copied stays on the target."""
        services.replication_task_delete(task=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={202: JobSerializer})
    @action(detail=True, methods=["post"])
    def run(self, request: Request, pk: str | None = None) -> Response:
        """Run the task now, as a job (its progress in bytes, rate and time left)."""
        job = services.replication_task_start(task=self.get_object(), user=request.user)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        request=serializers.ConsentSerializer,
        responses={200: serializers.ReplicationTaskSerializer},
    )
    @action(detail=True, methods=["post"])
    def consent(self, request: Request, pk: str | None = None) -> Response:
        """Agree to what the last refusal named (it destroys data on the target), for the
        next run only."""
        data = validated(serializers.ConsentSerializer, request.data)
        task = services.replication_task_consent(task=self.get_object(), choice=data["choice"])
        return Response(self.get_serializer(task).data)

    @extend_schema(request=None, responses=serializers.ReplicationRunSerializer(many=True))
    @action(detail=True, methods=["get"])
    def runs(self, request: Request, pk: str | None = None) -> Response:
        """The task's runs, newest first."""
        runs = selectors.run_queryset(self.get_object())
        paginator = self.paginator  # the API's page-number pagination, as for every list
        assert paginator is not None
        page = paginator.paginate_queryset(runs, request, view=self)
        body = serializers.ReplicationRunSerializer(page, many=True).data
        return paginator.get_paginated_response(body)

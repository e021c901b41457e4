"""SMART through the API: /api/storage/smart/ (every disk), disks/<name>/smart/, self-tests."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from storage.disks import selectors as disk_selectors
from storage.models import SmartTestTask
from storage.smart import selectors, services
from storage.smart.serializers import SmartSerializer, SmartTaskSerializer, TestStartSerializer
from storage.zfs.smart import SmartError, SmartReport


def _data(disk: str, report: SmartReport) -> dict[str, Any]:
    """A report as the serializer's input."""
    return {"disk": disk, **report.__dict__, "last_test": report.last_test}


def _known(name: str) -> None:
    """A 404 for a disk this machine does not have."""
    if name not in {d.name for d in disk_selectors.disk_list()}:
        raise NotFound(f"No disk named {name}.")


class SmartListView(APIView):
    """Every disk's SMART report (cached a few minutes: smartctl is slow)."""

    @extend_schema(responses=SmartSerializer(many=True))
    def get(self, request: Request) -> Response:
        rows = [
            _data(row.disk.name, row.smart)
            for row in selectors.disks_with_smart()
            if row.smart is not None
        ]
        return Response(SmartSerializer(rows, many=True).data)


class DiskSmartView(APIView):
    """One disk's SMART report; ?fresh=1 reads it again instead of the cached copy."""

    @extend_schema(responses=SmartSerializer)
    def get(self, request: Request, name: str) -> Response:
        _known(name)
        fresh = request.query_params.get("fresh") in ("1", "true")
        try:
            report = selectors.disk_smart(name, fresh=fresh)
        except SmartError as exc:
            return Response({"detail": exc.message}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(SmartSerializer(_data(name, report)).data)


class DiskSmartTestView(APIView):
    """Start a short or long self-test of the disk; its result shows in the report's log."""

    @extend_schema(request=TestStartSerializer, responses={202: None})
    def post(self, request: Request, name: str) -> Response:
        _known(name)
        services.smart_test_start(disk=name, **validated(TestStartSerializer, request.data))
        return Response(status=status.HTTP_202_ACCEPTED)


class SmartTaskViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[SmartTestTask],
):
    """Scheduled SMART self-tests; writes go through the services."""

    serializer_class = SmartTaskSerializer

    def get_queryset(self) -> QuerySet[SmartTestTask]:
        """Every scheduled test."""
        return SmartTestTask.objects.all()

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Schedule a self-test."""
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        task = services.smart_task_create(**body.validated_data)
        return Response(self.get_serializer(task).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change a scheduled self-test (PATCH: only the fields given)."""
        task = self.get_object()
        body = self.get_serializer(task, data=request.data, partial=kwargs.get("partial", False))
        body.is_valid(raise_exception=True)
        task = services.smart_task_update(task=task, **body.validated_data)
        return Response(self.get_serializer(task).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Remove a scheduled self-test."""
        services.smart_task_delete(task=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

"""SMART through the API: /api/storage/smart/ (every disk), disks/<name>/smart/, self-tests."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from storage.disks import selectors as disk_selectors
from storage.models import SmartTestTask
from storage.smart import selectors as smart_selectors
from storage.smart import services as smart_services
from storage.zfs.smart import TEST_KINDS, SmartError, SmartReport


class SelfTestSerializer(serializers.Serializer[Any]):
    """One self-test log entry, newest first."""

    type = serializers.CharField()
    kind = serializers.CharField(help_text="short, long or other")
    status = serializers.CharField()
    passed = serializers.BooleanField(allow_null=True)
    lifetime_hours = serializers.IntegerField(allow_null=True)


class SmartSerializer(serializers.Serializer[Any]):
    """A disk's SMART figures as smartctl reported them (supported=false: no SMART)."""

    disk = serializers.CharField()
    device = serializers.CharField()
    supported = serializers.BooleanField()
    message = serializers.CharField(help_text="Why there is no SMART data, if so.")
    model = serializers.CharField()
    serial = serializers.CharField()
    protocol = serializers.CharField()
    health = serializers.ChoiceField(choices=["passed", "failed", "unknown"])
    temperature = serializers.IntegerField(allow_null=True, help_text="°C")
    power_on_hours = serializers.IntegerField(allow_null=True)
    reallocated_sectors = serializers.IntegerField(allow_null=True)
    pending_sectors = serializers.IntegerField(allow_null=True)
    test_running = serializers.BooleanField()
    last_test = SelfTestSerializer(allow_null=True)
    tests = SelfTestSerializer(many=True)


class TestStartSerializer(serializers.Serializer[Any]):
    """Which self-test to start."""

    kind = serializers.ChoiceField(choices=TEST_KINDS)


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
            for row in smart_selectors.disks_with_smart()
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
            report = smart_selectors.disk_smart(name, fresh=fresh)
        except SmartError as exc:
            return Response({"detail": exc.message}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(SmartSerializer(_data(name, report)).data)


class DiskSmartTestView(APIView):
    """Start a short or long self-test of the disk; its result shows in the report's log."""

    @extend_schema(request=TestStartSerializer, responses={202: None})
    def post(self, request: Request, name: str) -> Response:
        _known(name)
        smart_services.smart_test_start(disk=name, **validated(TestStartSerializer, request.data))
        return Response(status=status.HTTP_202_ACCEPTED)


class SmartTaskSerializer(serializers.ModelSerializer[SmartTestTask]):
    """A scheduled self-test; `disks` empty means every disk that answers SMART."""

    disks = serializers.ListField(child=serializers.CharField(max_length=100), required=False)
    next_run = serializers.SerializerMethodField()

    class Meta:
        model = SmartTestTask
        fields = [
            "id", "kind", "disks", "minutes", "hours", "days_of_week", "enabled",
            "last_run_at", "last_outcome", "next_run",
        ]  # fmt: skip
        read_only_fields = ["last_run_at", "last_outcome"]

    def get_next_run(self, task: SmartTestTask) -> str | None:
        """The next run (ISO 8601), None while off."""
        found = smart_services.next_run(task)
        return found.isoformat() if found else None


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
        task = smart_services.smart_task_create(**body.validated_data)
        return Response(self.get_serializer(task).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change a scheduled self-test (PATCH: only the fields given)."""
        task = self.get_object()
        body = self.get_serializer(task, data=request.data, partial=kwargs.get("partial", False))
        body.is_valid(raise_exception=True)
        task = smart_services.smart_task_update(task=task, **body.validated_data)
        return Response(self.get_serializer(task).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Remove a scheduled self-test."""
        smart_services.smart_task_delete(task=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("smart/", SmartListView.as_view(), name="smart-list"),
    path("disks/<str:name>/smart/", DiskSmartView.as_view(), name="disk-smart"),
    path("disks/<str:name>/smart/tests/", DiskSmartTestView.as_view(), name="disk-smart-test"),
]

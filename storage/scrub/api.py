"""The scrub schedule of a pool: /api/storage/pools/<name>/scrub-schedule/."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from storage.models import ScrubTask
from storage.scrub import services as scrub_services
from storage.scrub.services import MAX_THRESHOLD_DAYS


class ScrubTaskSerializer(serializers.ModelSerializer[ScrubTask]):
    """When the pool is checked, how old its last scrub may get, and what the last check did."""

    next_check = serializers.SerializerMethodField()

    class Meta:
        model = ScrubTask
        fields = [
            "pool", "threshold_days", "minutes", "hours", "days_of_week", "enabled",
            "last_checked_at", "last_outcome", "last_started_at", "next_check",
        ]  # fmt: skip
        read_only_fields = ["pool", "last_checked_at", "last_outcome", "last_started_at"]

    def get_next_check(self, task: ScrubTask) -> str | None:
        """The next check's time (ISO 8601), None while off."""
        found = scrub_services.next_check(task) if task.enabled else None
        return found.isoformat() if found else None


class ScrubTaskUpdateSerializer(serializers.Serializer[dict[str, object]]):
    """The fields a PUT or PATCH may change; omitted ones are kept."""

    threshold_days = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_THRESHOLD_DAYS
    )
    minutes = serializers.CharField(required=False, max_length=100)
    hours = serializers.CharField(required=False, max_length=100)
    days_of_week = serializers.CharField(required=False, max_length=100)
    enabled = serializers.BooleanField(required=False)


class ScrubScheduleView(APIView):
    """Read or change one pool's scrub schedule."""

    def _task(self, name: str) -> ScrubTask:
        try:
            return scrub_services.scrub_task_get(name)
        except ValidationError as exc:
            raise NotFound(f"No pool named {name}.") from exc

    @extend_schema(responses=ScrubTaskSerializer)
    def get(self, request: Request, name: str) -> Response:
        return Response(ScrubTaskSerializer(self._task(name)).data)

    @extend_schema(request=ScrubTaskUpdateSerializer, responses=ScrubTaskSerializer)
    def put(self, request: Request, name: str) -> Response:
        task = self._task(name)
        changes = validated(ScrubTaskUpdateSerializer, request.data)
        saved = scrub_services.scrub_task_update(task=task, **changes)
        return Response(ScrubTaskSerializer(saved).data)

    @extend_schema(request=ScrubTaskUpdateSerializer, responses=ScrubTaskSerializer)
    def patch(self, request: Request, name: str) -> Response:
        return self.put(request, name)

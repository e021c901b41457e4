"""The scrub schedule of a pool: /api/storage/pools/<name>/scrub-schedule/."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from storage.models import ScrubTask
from storage.scrub import services
from storage.scrub.serializers import ScrubTaskSerializer, ScrubTaskUpdateSerializer


class ScrubScheduleView(APIView):
    """Read or change one pool's scrub schedule."""

    def _task(self, name: str) -> ScrubTask:
        try:
            return services.scrub_task_get(name)
        except ValidationError as exc:
            raise NotFound(f"No pool named {name}.") from exc

    @extend_schema(responses=ScrubTaskSerializer)
    def get(self, request: Request, name: str) -> Response:
        return Response(ScrubTaskSerializer(self._task(name)).data)

    @extend_schema(request=ScrubTaskUpdateSerializer, responses=ScrubTaskSerializer)
    def put(self, request: Request, name: str) -> Response:
        task = self._task(name)
        changes = validated(ScrubTaskUpdateSerializer, request.data)
        saved = services.scrub_task_update(task=task, **changes)
        return Response(ScrubTaskSerializer(saved).data)

    @extend_schema(request=ScrubTaskUpdateSerializer, responses=ScrubTaskSerializer)
    def patch(self, request: Request, name: str) -> Response:
        return self.put(request, name)

"""The backup schedule through the API: GET and PUT /api/system/backup/schedule/."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from system.backup_schedules import selectors, services
from system.backup_schedules.serializers import BackupScheduleSerializer


class BackupScheduleView(APIView):
    """Scheduled config archives onto a dataset."""

    @extend_schema(responses=BackupScheduleSerializer)
    def get(self, request: Request) -> Response:
        """The schedule (off until set)."""
        return Response(BackupScheduleSerializer(selectors.schedule_get()).data)

    @extend_schema(request=BackupScheduleSerializer, responses=BackupScheduleSerializer)
    def put(self, request: Request) -> Response:
        """Change it; each refusal names its field and changes nothing."""
        data = validated(BackupScheduleSerializer, request.data, partial=True)
        return Response(BackupScheduleSerializer(services.schedule_update(**data)).data)

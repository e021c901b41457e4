"""The clock through the API: GET and PUT /api/system/clock/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from system.clock import selectors, services
from system.clock.serializers import ClockSerializer
from system.models import ClockSettings


def answer(row: ClockSettings) -> dict[str, Any]:
    """The row and the clock's state, as ClockSerializer reads them."""
    status = selectors.clock_status(row)
    sync = status.sync
    return {
        "time_zone": row.time_zone,
        "ntp_servers": row.servers(),
        "now": status.now.isoformat(),
        "applied": status.applied,
        "synchronized": sync.synchronized if sync else None,
        "server": sync.server if sync else None,
        "offset_ms": sync.offset_ms if sync else None,
        "system_time_zone": sync.zone if sync else None,
    }


class ClockView(APIView):
    """The box's time zone and NTP servers."""

    @extend_schema(responses=ClockSerializer)
    def get(self, request: Request) -> Response:
        """The settings and the time now."""
        return Response(ClockSerializer(answer(selectors.clock_get())).data)

    @extend_schema(request=ClockSerializer, responses=ClockSerializer)
    def put(self, request: Request) -> Response:
        """Change them; a refusal names its field and changes nothing."""
        data = validated(ClockSerializer, request.data, partial=True)
        return Response(ClockSerializer(answer(services.clock_update(**data))).data)

"""The UPS through the API: GET and PUT /api/system/ups/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from system.models import UpsSettings
from system.ups import selectors, services
from system.ups.serializers import UpsSerializer


def answer(row: UpsSettings) -> dict[str, Any]:
    """The row (secrets as set or not) and the UPS's state."""
    reading = selectors.ups_reading(row)
    return {
        **{name: getattr(row, name) for name in services.FIELDS if name not in services.SECRETS},
        "remote_password_set": bool(row.remote_password),
        "monitor_password_set": bool(row.monitor_password),
        "ups": reading.status.as_dict() if reading.status else None,
        "error": reading.error,
        "last_shutdown": selectors.shutdown_record(),
    }


class UpsView(APIView):
    """The UPS (Network UPS Tools): settings and status."""

    @extend_schema(responses=UpsSerializer)
    def get(self, request: Request) -> Response:
        """The settings and the UPS's status now."""
        return Response(UpsSerializer(answer(selectors.ups_get())).data)

    @extend_schema(request=UpsSerializer, responses=UpsSerializer)
    def put(self, request: Request) -> Response:
        """Change them; a refusal names its field and changes nothing."""
        data = validated(UpsSerializer, request.data, partial=True)
        return Response(UpsSerializer(answer(services.ups_update(**data))).data)

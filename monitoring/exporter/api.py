"""Exporter API (at /api/monitoring/exporter/): the setting, and a new token."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from monitoring.exporter import selectors, services
from monitoring.exporter.serializers import ExporterSettingsSerializer, ExporterTokenSerializer
from nasui.api.bodies import validated


class ExporterSettingsView(APIView):
    """Whether /metrics answers scrapes (off by default)."""

    @extend_schema(responses=ExporterSettingsSerializer)
    def get(self, request: Request) -> Response:
        """The setting and the token's prefix."""
        return Response(ExporterSettingsSerializer(selectors.exporter_settings()).data)

    @extend_schema(request=ExporterSettingsSerializer, responses=ExporterSettingsSerializer)
    def put(self, request: Request) -> Response:
        """Turn /metrics on or off."""
        body = validated(ExporterSettingsSerializer, request.data)
        return Response(ExporterSettingsSerializer(services.exporter_update(**body)).data)


class ExporterTokenView(APIView):
    """Make a new scrape token; the previous one stops working."""

    @extend_schema(request=None, responses={201: ExporterTokenSerializer})
    def post(self, request: Request) -> Response:
        """The new token, returned this once."""
        row, key = services.exporter_token_create()
        body = {"token": key, "token_prefix": row.token_prefix,
                "token_created_at": row.token_created_at}  # fmt: skip
        return Response(ExporterTokenSerializer(body).data, status=201)

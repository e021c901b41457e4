"""Monitoring API: the newest figures, series over a range, and alerts (thin views)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from monitoring.metrics import selectors
from monitoring.metrics import serializers as s


class MonitoringRoot(APIView):
    """Links to the monitoring endpoints."""

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        names = ("current", "series", "alerts")
        return Response({n: reverse(f"monitoring-api:{n}", request=request) for n in names})


class CurrentView(APIView):
    """The newest sample."""

    @extend_schema(responses=s.CurrentSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.CurrentSerializer(selectors.current()).data)


def _metrics(request: Request) -> list[str]:
    """?metric=a&metric=b or ?metric=a,b."""
    return [m for raw in request.query_params.getlist("metric") for m in raw.split(",") if m]


class SeriesView(APIView):
    """Points of one or more metrics over 10 min, 1 h (raw), 1 day, 1 week or 1 year (rollups)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("metric", str, many=True, required=True,
                             description="e.g. cpu.busy, mem.arc, pool.tank.ddt_in_core"),
            OpenApiParameter("range", str, enum=list(selectors.RANGES)),
            OpenApiParameter("since", float, description="Unix time: only newer points."),
        ],
        responses=s.SeriesResponseSerializer,
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        query = s.SeriesQuerySerializer(
            data={**request.query_params.dict(), "metric": _metrics(request)}
        )
        query.is_valid(raise_exception=True)
        data = query.validated_data
        return Response(selectors.series(data["metric"], data["range"], data.get("since")))


class AlertsView(GenericAPIView[Any]):
    """Pool not ONLINE or over 80% full, swap in use, dedup table outgrowing its share of RAM."""

    serializer_class = s.AlertSerializer

    @extend_schema(responses=s.AlertSerializer(many=True))
    def get(self, request: Request) -> Response:
        found = selectors.alert_list(settings.NASUI_DDT_ALERT_SHARE)
        page = self.paginate_queryset(found)  # type: ignore[arg-type]
        return self.get_paginated_response(s.AlertSerializer(page, many=True).data)

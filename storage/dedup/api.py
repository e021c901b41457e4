"""What dedup would cost, through the API: /api/storage/dedup-estimate/."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from storage import validation as v
from storage.dedup import selectors
from storage.dedup import serializers as s


class DedupEstimateView(APIView):
    """DDT entries and RAM that dedup would need for an amount of data on this machine."""

    @extend_schema(
        parameters=[s.DedupEstimateQuerySerializer],
        responses=s.DedupEstimateSerializer,
    )
    def get(self, request: Request) -> Response:
        query = validated(s.DedupEstimateQuerySerializer, request.query_params)
        estimate = selectors.dedup_estimate(
            pool=query.get("pool") or None,
            data_bytes=v.parse_size(query["size"]),
            block_size=query["block_size"],
        )
        return Response(s.DedupEstimateSerializer(estimate).data)

"""Pools through the API: list, create, detail, scrub, export, import, destroy."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from nasui.api.viewsets import ListViewSet
from storage.pools import selectors, services
from storage.pools import serializers as s
from storage.scrub import services as scrub_services
from storage.zfs import errors as zfs


def _pool_detail(name: str) -> dict[str, Any]:
    try:
        detail = selectors.pool_detail(name)
    except zfs.PoolNotFound as exc:
        raise Http404(f"No pool named {name}.") from exc
    return {
        **asdict(detail.pool),
        "status": detail.status,
        "ddt": detail.ddt,
        "root": detail.root,
        "space": detail.space,
    }


class PoolViewSet(ListViewSet):
    """Pools: list, create (a job), detail, destroy (a job, confirmed by name), scrub, export."""

    lookup_field = "name"
    lookup_value_regex = "[^/]+"

    @extend_schema(responses=s.PoolSerializer(many=True))
    def list(self, request: Request) -> Response:
        return self.paginated(request, selectors.pool_list(), s.PoolSerializer)

    @extend_schema(request=s.PoolCreateSerializer, responses={202: JobSerializer})
    def create(self, request: Request) -> Response:
        data = validated(s.PoolCreateSerializer, request.data)
        job = services.pool_create(**data, user=request.user)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=s.PoolDetailSerializer)
    def retrieve(self, request: Request, name: str) -> Response:
        return Response(s.PoolDetailSerializer(_pool_detail(name)).data)

    @extend_schema(
        parameters=[OpenApiParameter("confirm", str, description="The pool's name again.")],
        responses={202: JobSerializer},
    )
    def destroy(self, request: Request, name: str) -> Response:
        confirm = request.query_params.get("confirm", "")
        job = services.pool_destroy(name=name, confirm=confirm, user=request.user)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={202: JobSerializer})
    @action(detail=True, methods=["post"])
    def scrub(self, request: Request, name: str) -> Response:
        """Start a scrub; the job reports its progress."""
        job = scrub_services.pool_scrub(name=name, user=request.user)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["post"])
    def export(self, request: Request, name: str) -> Response:
        """Export the pool (no data is deleted)."""
        services.pool_export(name=name)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=s.ImportableSerializer(many=True))
    @action(detail=False, methods=["get"])
    def importable(self, request: Request) -> Response:
        """Pools on the disks that are not imported."""
        return self.paginated(request, selectors.importable_pools(), s.ImportableSerializer)

    @extend_schema(request=s.ImportSerializer, responses={201: s.PoolSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_pool(self, request: Request) -> Response:
        """Import a found pool by name or id."""
        data = validated(s.ImportSerializer, request.data)
        services.pool_import(name_or_guid=data["pool"], new_name=data["new_name"])
        name = data["new_name"] or data["pool"]
        pools = [p for p in selectors.pool_list() if name in (p.name, p.guid)]
        return Response(s.PoolSerializer(pools[0]).data, status=status.HTTP_201_CREATED)

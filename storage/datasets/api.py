"""Storage API: disks, pools, datasets, zvols and the dedup estimate. ZFS is the source of truth."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from nasui.validation import fail
from storage import validation as v
from storage.datasets import selectors, services
from storage.datasets import serializers as s
from storage.dedup import selectors as dedup_selectors
from storage.disks import selectors as disk_selectors
from storage.pools import selectors as pool_selectors
from storage.pools import services as pool_services
from storage.scrub import services as scrub_services
from storage.zfs import errors as zfs

NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="Full ZFS name.")


class ListViewSet(viewsets.ViewSet):
    """A ViewSet over a plain list, paginated like the model-backed ones."""

    def paginated(self, request: Request, items: list[Any], serializer: type) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        response: Response = paginator.get_paginated_response(serializer(page, many=True).data)
        return response

    @property
    def pagination_class(self) -> Any:
        from rest_framework.settings import api_settings

        return api_settings.DEFAULT_PAGINATION_CLASS


class DiskViewSet(ListViewSet):
    """Whole disks and the pool using each."""

    @extend_schema(responses=s.DiskSerializer(many=True))
    def list(self, request: Request) -> Response:
        return self.paginated(request, disk_selectors.disk_list(), s.DiskSerializer)


def _pool_detail(name: str) -> dict[str, Any]:
    try:
        detail = pool_selectors.pool_detail(name)
    except zfs.PoolNotFound as exc:
        raise Http404(f"No pool named {name}.") from exc
    return {**asdict(detail.pool), "status": detail.status, "ddt": detail.ddt, "root": detail.root}


class PoolViewSet(ListViewSet):
    """Pools: list, create (a job), detail, destroy (a job, confirmed by name), scrub, export."""

    lookup_field = "name"
    lookup_value_regex = "[^/]+"

    @extend_schema(responses=s.PoolSerializer(many=True))
    def list(self, request: Request) -> Response:
        return self.paginated(request, pool_selectors.pool_list(), s.PoolSerializer)

    @extend_schema(request=s.PoolCreateSerializer, responses={202: JobSerializer})
    def create(self, request: Request) -> Response:
        data = validated(s.PoolCreateSerializer, request.data)
        job = pool_services.pool_create(**data, user=request.user)
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
        job = pool_services.pool_destroy(name=name, confirm=confirm, user=request.user)
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
        pool_services.pool_export(name=name)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=s.ImportableSerializer(many=True))
    @action(detail=False, methods=["get"])
    def importable(self, request: Request) -> Response:
        """Pools on the disks that are not imported."""
        return self.paginated(request, pool_selectors.importable_pools(), s.ImportableSerializer)

    @extend_schema(request=s.ImportSerializer, responses={201: s.PoolSerializer})
    @action(detail=False, methods=["post"], url_path="import")
    def import_pool(self, request: Request) -> Response:
        """Import a found pool by name or id."""
        data = validated(s.ImportSerializer, request.data)
        pool_services.pool_import(name_or_guid=data["pool"], new_name=data["new_name"])
        name = data["new_name"] or data["pool"]
        pools = [p for p in pool_selectors.pool_list() if name in (p.name, p.guid)]
        return Response(s.PoolSerializer(pools[0]).data, status=status.HTTP_201_CREATED)


def _settle(request: Request) -> bool:
    """The ?settle= flag: read the figures only once the pool's writes have synced."""
    return bool(validated(s.FiguresQuerySerializer, request.query_params)["settle"])


def _listing(pool: str | None, *, volumes: bool, settle: bool) -> list[Any]:
    """A list endpoint's datasets or zvols in one ZFS listing; an unknown ?pool= is its error."""
    if pool is None:
        return selectors.dataset_list(volumes=volumes, settle=settle)
    try:
        if "/" in pool:
            raise zfs.PoolNotFound(pool)
        return selectors.dataset_list(pool, volumes=volumes, settle=settle)
    except (zfs.PoolNotFound, zfs.DatasetNotFound, zfs.InvalidProperty):
        raise fail("pool", f"No pool is named “{pool}”.") from None


def _split(full: str) -> tuple[str, str]:
    """tank/a/b -> ("tank/a", "b")."""
    parent, _, name = full.strip("/").rpartition("/")
    return parent, name


class _DatasetBase(ListViewSet):
    """Shared list/retrieve/destroy of datasets and zvols (names contain slashes)."""

    lookup_field = "name"
    lookup_value_regex = ".+"
    volumes = False

    def _get(self, name: str, *, settle: bool = False) -> Any:
        try:
            found = selectors.dataset_get(name, settle=settle)
        except zfs.DatasetNotFound as exc:
            raise Http404(f"No dataset or zvol named {name}.") from exc
        if found.is_volume != self.volumes:
            raise Http404(f"{name} is not a {'zvol' if self.volumes else 'file system'}.")
        return found

    @extend_schema(
        parameters=[
            OpenApiParameter("pool", str, description="Only this pool."),
            s.FiguresQuerySerializer,
        ],
        responses=s.DatasetSerializer(many=True),
    )
    def list(self, request: Request) -> Response:
        settle = _settle(request)
        pool = request.query_params.get("pool") or None
        items = _listing(pool, volumes=self.volumes, settle=settle)
        return self.paginated(request, items, s.DatasetSerializer)

    @extend_schema(parameters=[NAME, s.FiguresQuerySerializer], responses=s.DatasetSerializer)
    def retrieve(self, request: Request, name: str) -> Response:
        return Response(s.DatasetSerializer(self._get(name, settle=_settle(request))).data)

    detail_serializer: type[Any] = s.DatasetSerializer

    def _create(self, request: Request, body: type[Any], service: Callable[..., Any]) -> Response:
        """Create from a body naming the full path: `service(parent=, name=, **the rest)`."""
        data = validated(body, request.data)
        parent, name = _split(data.pop("name"))
        created = service(parent=parent, name=name, **data)
        return Response(self.detail_serializer(created).data, status=status.HTTP_201_CREATED)

    def _update(
        self, request: Request, name: str, body: type[Any], service: Callable[..., Any]
    ) -> Response:
        """Change only the properties the body names: `service(name=, **those)`."""
        self._get(name)
        data = validated(body, request.data, partial=True)
        return Response(self.detail_serializer(service(name=name, **data)).data)


class DatasetViewSet(_DatasetBase):
    """File systems: list, create, change properties, owner and mode, destroy (confirmed)."""

    detail_serializer = s.DatasetDetailSerializer

    @extend_schema(parameters=[NAME, s.FiguresQuerySerializer], responses=s.DatasetDetailSerializer)
    def retrieve(self, request: Request, name: str) -> Response:
        dataset = self._get(name, settle=_settle(request))
        return Response(s.DatasetDetailSerializer(dataset).data)

    @extend_schema(request=s.DatasetCreateSerializer, responses={201: s.DatasetDetailSerializer})
    def create(self, request: Request) -> Response:
        return self._create(request, s.DatasetCreateSerializer, services.dataset_create)

    @extend_schema(
        parameters=[NAME], request=s.DatasetWriteSerializer, responses=s.DatasetSavedSerializer
    )
    def partial_update(self, request: Request, name: str) -> Response:
        self._get(name)
        data = validated(s.DatasetWriteSerializer, request.data, partial=True)
        saved = services.dataset_update(name=name, user=request.user, **data)
        body = s.DatasetSavedSerializer(saved.dataset, context={"job": saved.job}).data
        return Response(body)

    @extend_schema(
        parameters=[
            NAME,
            OpenApiParameter("confirm", str, description="The dataset's full name again."),
            OpenApiParameter("recursive", bool, description="Also destroy children."),
        ],
        responses={204: None},
    )
    def destroy(self, request: Request, name: str) -> Response:
        self._get(name)
        recursive = request.query_params.get("recursive", "").lower() in ("1", "true", "yes")
        confirm = request.query_params.get("confirm", "")
        services.dataset_destroy(name=name, confirm=confirm, recursive=recursive)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ZvolViewSet(_DatasetBase):
    """Zvols: list, create, grow and change properties, destroy (refused while shared)."""

    volumes = True

    @extend_schema(request=s.ZvolCreateSerializer, responses={201: s.DatasetSerializer})
    def create(self, request: Request) -> Response:
        return self._create(request, s.ZvolCreateSerializer, services.zvol_create)

    @extend_schema(parameters=[NAME], request=s.ZvolWriteSerializer, responses=s.DatasetSerializer)
    def partial_update(self, request: Request, name: str) -> Response:
        return self._update(request, name, s.ZvolWriteSerializer, services.zvol_update)

    @extend_schema(
        parameters=[NAME, OpenApiParameter("confirm", str, description="The zvol's name again.")],
        responses={204: None},
    )
    def destroy(self, request: Request, name: str) -> Response:
        self._get(name)
        services.zvol_destroy(name=name, confirm=request.query_params.get("confirm", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DedupEstimateView(APIView):
    """DDT entries and RAM that dedup would need for an amount of data on this machine."""

    @extend_schema(parameters=[s.DedupEstimateQuerySerializer], responses=s.DedupEstimateSerializer)
    def get(self, request: Request) -> Response:
        query = validated(s.DedupEstimateQuerySerializer, request.query_params)
        estimate = dedup_selectors.dedup_estimate(
            pool=query.get("pool") or None,
            data_bytes=v.parse_size(query["size"]),
            block_size=query["block_size"],
        )
        return Response(s.DedupEstimateSerializer(estimate).data)

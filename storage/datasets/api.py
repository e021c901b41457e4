"""Storage API: disks, pools, datasets, zvols and the dedup estimate. ZFS is the source of truth."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from nasui.api.bodies import validated
from nasui.api.viewsets import ListViewSet
from nasui.validation import fail
from storage import validation as v
from storage.datasets import selectors, services
from storage.datasets import serializers as s
from storage.zfs import errors as zfs

NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="Full ZFS name.")


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


def _on_name(exc: ValidationError) -> ValidationError:
    """The API takes one full name: what a page says of its parent is said of `name`."""
    errors = exc.message_dict
    if "parent" not in errors:
        return exc
    moved = {key: list(messages) for key, messages in errors.items() if key != "parent"}
    moved["name"] = [*moved.get("name", []), *errors["parent"]]
    return ValidationError(moved)


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

    @extend_schema(
        parameters=[NAME, s.FiguresQuerySerializer],
        responses=s.DatasetSerializer,
    )
    def retrieve(self, request: Request, name: str) -> Response:
        return Response(s.DatasetSerializer(self._get(name, settle=_settle(request))).data)

    detail_serializer: type[Any] = s.DatasetSerializer

    def _create(self, request: Request, body: type[Any], service: Callable[..., Any]) -> Response:
        """Create from a body naming the full path: `service(parent=, name=, **the rest)`."""
        data = validated(body, request.data)
        parent, name = v.split_dataset_name(data.pop("name"), "name")
        try:
            created = service(parent=parent, name=name, **data)
        except ValidationError as exc:
            raise _on_name(exc) from exc
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

    @extend_schema(
        parameters=[NAME, s.FiguresQuerySerializer],
        responses=s.DatasetDetailSerializer,
    )
    def retrieve(self, request: Request, name: str) -> Response:
        dataset = self._get(name, settle=_settle(request))
        return Response(s.DatasetDetailSerializer(dataset).data)

    @extend_schema(
        request=s.DatasetCreateSerializer,
        responses={201: s.DatasetDetailSerializer},
    )
    def create(self, request: Request) -> Response:
        return self._create(request, s.DatasetCreateSerializer, services.dataset_create)

    @extend_schema(
        parameters=[NAME],
        request=s.DatasetWriteSerializer,
        responses=s.DatasetSavedSerializer,
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
            OpenApiParameter(
                "release_holds", bool, description="Also release the holds on its snapshots."
            ),
        ],
        responses={204: None},
    )
    def destroy(self, request: Request, name: str) -> Response:
        self._get(name)
        query = request.query_params
        services.dataset_destroy(
            name=name,
            confirm=query.get("confirm", ""),
            recursive=_yes(query.get("recursive", "")),
            release_holds=_yes(query.get("release_holds", "")),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ZvolViewSet(_DatasetBase):
    """Zvols: list, create, grow and change properties, destroy (refused while shared)."""

    volumes = True

    @extend_schema(request=s.ZvolCreateSerializer, responses={201: s.DatasetSerializer})
    def create(self, request: Request) -> Response:
        return self._create(request, s.ZvolCreateSerializer, services.zvol_create)

    @extend_schema(
        parameters=[NAME],
        request=s.ZvolWriteSerializer,
        responses=s.DatasetSerializer,
    )
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


def _yes(value: str) -> bool:
    """A boolean query parameter: 1, true or yes."""
    return value.lower() in ("1", "true", "yes")

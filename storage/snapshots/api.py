"""Snapshot API: list, take, destroy (one, several, a range), roll back, clone, compare; tasks."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from nasui.api.bodies import validated
from nasui.api.viewsets import ListViewSet
from storage.snapshots import selectors, services
from storage.snapshots import serializers as s
from storage.zfs.base import Snapshot

NAME = OpenApiParameter(
    "name", str, OpenApiParameter.PATH, description="Full name, pool/dataset@snapshot."
)


def _get(name: str) -> Snapshot:
    """One snapshot, or a 404 naming what is wrong."""
    try:
        return selectors.snapshot_get(name)
    except ValidationError as exc:
        raise Http404(" ".join(exc.messages)) from exc


class SnapshotViewSet(ListViewSet):
    """Snapshots of datasets and zvols; ZFS is the source of truth."""

    lookup_field = "name"
    # A snapshot's short name has no "/", so "<name>/rollback/" never reads as one long name;
    # the @ is required, or "tank/rollback/" would read as a snapshot named "tank/rollback"
    # (whose POST would be a 405). A name without @ is a 404 like any unknown address.
    lookup_value_regex = "[^@]+@[^/@]+"

    @extend_schema(
        parameters=[s.SnapshotListQuerySerializer],
        responses=s.SnapshotSerializer(many=True),
    )
    def list(self, request: Request) -> Response:
        """Snapshots, oldest first per dataset; of every pool unless ?dataset= is given."""
        query = validated(s.SnapshotListQuerySerializer, request.query_params)
        found = selectors.snapshot_list(query.get("dataset") or None, recursive=query["recursive"])
        return self.paginated(request, found, s.SnapshotSerializer)

    @extend_schema(
        request=s.SnapshotCreateSerializer,
        responses={201: s.SnapshotSerializer},
    )
    def create(self, request: Request) -> Response:
        """Take a snapshot now (of the whole tree, atomically, when recursive)."""
        data = validated(s.SnapshotCreateSerializer, request.data)
        made = services.snapshot_create(**data)
        return Response(s.SnapshotSerializer(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[NAME], responses=s.SnapshotSerializer)
    def retrieve(self, request: Request, name: str) -> Response:
        """One snapshot by its full name."""
        return Response(s.SnapshotSerializer(_get(name)).data)

    @extend_schema(parameters=[NAME], responses={204: None})
    def destroy(self, request: Request, name: str) -> Response:
        """Destroy one snapshot (refused while it is held or cloned)."""
        snapshot = _get(name)
        services.snapshot_destroy(dataset=snapshot.dataset, names=[snapshot.short_name])
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.SnapshotDestroySerializer, responses=s.DestroyedSerializer)
    @action(detail=False, methods=["post"], url_path="destroy")
    def destroy_many(self, request: Request) -> Response:
        """Destroy several snapshots of one dataset, or a range of them; all or none."""
        data = validated(s.SnapshotDestroySerializer, request.data)
        if "names" in data:
            count = services.snapshot_destroy(dataset=data["dataset"], names=data["names"])
        else:
            count = services.snapshot_destroy_range(
                dataset=data["dataset"], first=data["first"], last=data["last"]
            )
        return Response({"destroyed": count})

    @extend_schema(
        parameters=[NAME],
        request=s.RollbackSerializer,
        responses=s.RolledBackSerializer,
    )
    @action(detail=True, methods=["post"])
    def rollback(self, request: Request, name: str) -> Response:
        """Return the dataset to the snapshot; newer snapshots go only with destroy_newer."""
        _get(name)
        data = validated(s.RollbackSerializer, request.data)
        gone = services.snapshot_rollback(snapshot=name, **data)
        return Response({"destroyed": gone})

    @extend_schema(
        parameters=[NAME],
        request=s.CloneSerializer,
        responses={201: s.ClonedSerializer},
    )
    @action(detail=True, methods=["post"])
    def clone(self, request: Request, name: str) -> Response:
        """A new writable dataset or zvol from the snapshot."""
        _get(name)
        data = validated(s.CloneSerializer, request.data)
        target = services.snapshot_clone(snapshot=name, target=data["target"])
        return Response({"name": target}, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[NAME], responses=s.DiffEntrySerializer(many=True))
    @action(detail=True, methods=["get"])
    def diff(self, request: Request, name: str) -> Response:
        """What changed in a file system since the snapshot (zvols: 400)."""
        _get(name)
        return self.paginated(request, selectors.snapshot_diff(name), s.DiffEntrySerializer)

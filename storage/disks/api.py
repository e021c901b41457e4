"""A pool's disks through the API: /api/storage/pools/<name>/disks/<action>/, vdevs/, aux/."""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from storage.disks import services as ds
from storage.zfs.base import DATA_VDEV_TYPES
from storage.zfs.devices import AUX_KINDS

Body = serializers.Serializer[dict[str, Any]]


class DiskSerializer(Body):
    """One disk of the pool."""

    disk = serializers.CharField(max_length=200)


class OfflineSerializer(DiskSerializer):
    """The disk, and whether the offline should last only until the next reboot."""

    temporary = serializers.BooleanField(default=False)


class NewDiskSerializer(DiskSerializer):
    """A disk of the pool and the free disk that replaces or mirrors it."""

    new_disk = serializers.CharField(max_length=200)


class VdevSerializer(Body):
    """One data vdev: the pool's own layout and as many disks as its other vdevs have."""

    layout = serializers.ChoiceField(choices=DATA_VDEV_TYPES)
    disks = serializers.ListField(child=serializers.CharField(max_length=200), min_length=1)


class AuxSerializer(Body):
    """Hot spares, a log (mirrored when asked) or cache disks."""

    kind = serializers.ChoiceField(choices=AUX_KINDS)
    disks = serializers.ListField(child=serializers.CharField(max_length=200), min_length=1)
    mirror = serializers.BooleanField(default=False)


def _no_content() -> Response:
    return Response(status=status.HTTP_204_NO_CONTENT)


def _job(job: Any) -> Response:
    return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class DiskOfflineView(APIView):
    """Take a disk offline (refused when it holds the last copy of some data)."""

    @extend_schema(request=OfflineSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        ds.pool_disk_offline(pool=name, **validated(OfflineSerializer, request.data))
        return _no_content()


class DiskOnlineView(APIView):
    """Bring an offline disk back."""

    @extend_schema(request=DiskSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        ds.pool_disk_online(pool=name, **validated(DiskSerializer, request.data))
        return _no_content()


class DiskReplaceView(APIView):
    """Replace a disk with a free one or a hot spare; the job follows the resilver."""

    @extend_schema(request=NewDiskSerializer, responses={202: JobSerializer})
    def post(self, request: Request, name: str) -> Response:
        data = validated(NewDiskSerializer, request.data)
        return _job(ds.pool_disk_replace(pool=name, **data, user=request.user))


class DiskAttachView(APIView):
    """Mirror a single disk or widen a mirror; the job follows the resilver."""

    @extend_schema(request=NewDiskSerializer, responses={202: JobSerializer})
    def post(self, request: Request, name: str) -> Response:
        data = validated(NewDiskSerializer, request.data)
        return _job(ds.pool_disk_attach(pool=name, **data, user=request.user))


class DiskDetachView(APIView):
    """Take one side off a mirror (never the last copy)."""

    @extend_schema(request=DiskSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        ds.pool_disk_detach(pool=name, **validated(DiskSerializer, request.data))
        return _no_content()


class VdevAddView(APIView):
    """Grow the pool by one data vdev of its own type and width."""

    @extend_schema(request=VdevSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        ds.pool_vdev_add(pool=name, **validated(VdevSerializer, request.data))
        return _no_content()


class AuxAddView(APIView):
    """Add hot spares, a log or cache disks."""

    @extend_schema(request=AuxSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        ds.pool_aux_add(pool=name, **validated(AuxSerializer, request.data))
        return _no_content()


class AuxRemoveView(APIView):
    """Remove a hot spare, cache or log disk (a mirrored log by its vdev name)."""

    @extend_schema(responses={204: None})
    def delete(self, request: Request, name: str, disk: str) -> Response:
        ds.pool_aux_remove(pool=name, disk=disk)
        return _no_content()


POOL = "pools/<str:name>/"
urlpatterns = [
    path(f"{POOL}disks/offline/", DiskOfflineView.as_view(), name="pool-disk-offline"),
    path(f"{POOL}disks/online/", DiskOnlineView.as_view(), name="pool-disk-online"),
    path(f"{POOL}disks/replace/", DiskReplaceView.as_view(), name="pool-disk-replace"),
    path(f"{POOL}disks/attach/", DiskAttachView.as_view(), name="pool-disk-attach"),
    path(f"{POOL}disks/detach/", DiskDetachView.as_view(), name="pool-disk-detach"),
    path(f"{POOL}vdevs/", VdevAddView.as_view(), name="pool-vdev-add"),
    path(f"{POOL}aux/", AuxAddView.as_view(), name="pool-aux-add"),
    path(f"{POOL}aux/<str:disk>/", AuxRemoveView.as_view(), name="pool-aux-remove"),
]

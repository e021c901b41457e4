"""A pool's disks through the API: /api/storage/pools/<name>/disks/<action>/, vdevs/, aux/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from nasui.api.viewsets import ListViewSet
from storage.disks import selectors, services
from storage.disks import serializers as s


def _no_content() -> Response:
    return Response(status=status.HTTP_204_NO_CONTENT)


def _job(job: Any) -> Response:
    return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class DiskOfflineView(APIView):
    """Take a disk offline (refused when it holds the last copy of some data)."""

    @extend_schema(request=s.OfflineSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        services.pool_disk_offline(pool=name, **validated(s.OfflineSerializer, request.data))
        return _no_content()


class DiskOnlineView(APIView):
    """Bring an offline disk back."""

    @extend_schema(request=s.DiskSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        services.pool_disk_online(pool=name, **validated(s.DiskSerializer, request.data))
        return _no_content()


class DiskReplaceView(APIView):
    """Replace a disk with a free one or a hot spare; the job follows the resilver."""

    @extend_schema(request=s.NewDiskSerializer, responses={202: JobSerializer})
    def post(self, request: Request, name: str) -> Response:
        data = validated(s.NewDiskSerializer, request.data)
        return _job(services.pool_disk_replace(pool=name, **data, user=request.user))


class DiskAttachView(APIView):
    """Mirror a single disk or widen a mirror; the job follows the resilver."""

    @extend_schema(request=s.NewDiskSerializer, responses={202: JobSerializer})
    def post(self, request: Request, name: str) -> Response:
        data = validated(s.NewDiskSerializer, request.data)
        return _job(services.pool_disk_attach(pool=name, **data, user=request.user))


class DiskDetachView(APIView):
    """Take one side off a mirror (never the last copy)."""

    @extend_schema(request=s.DiskSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        services.pool_disk_detach(pool=name, **validated(s.DiskSerializer, request.data))
        return _no_content()


class VdevAddView(APIView):
    """Grow the pool by one data vdev of its own type and width."""

    @extend_schema(request=s.VdevSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        services.pool_vdev_add(pool=name, **validated(s.VdevSerializer, request.data))
        return _no_content()


class AuxAddView(APIView):
    """Add hot spares, a log or cache disks."""

    @extend_schema(request=s.AuxSerializer, responses={204: None})
    def post(self, request: Request, name: str) -> Response:
        services.pool_aux_add(pool=name, **validated(s.AuxSerializer, request.data))
        return _no_content()


class AuxRemoveView(APIView):
    """Remove a hot spare, cache or log disk (a mirrored log by its vdev name)."""

    @extend_schema(responses={204: None})
    def delete(self, request: Request, name: str, disk: str) -> Response:
        services.pool_aux_remove(pool=name, disk=disk)
        return _no_content()


class DiskViewSet(ListViewSet):
    """Whole disks and the pool using each."""

    @extend_schema(responses=s.DiskRowSerializer(many=True))
    def list(self, request: Request) -> Response:
        return self.paginated(request, selectors.disk_list(), s.DiskRowSerializer)

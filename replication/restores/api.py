"""Restores through the API: POST /api/replication/tasks/{id}/restore/ and …/test-restore/."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from replication.replications.selectors import task_get
from replication.restores import serializers, services


class RestoreView(APIView):
    """Bring a task's copy back (beside the original by default), as a job."""

    @extend_schema(request=serializers.RestoreSerializer, responses={202: JobSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Start the restore; its progress is the job's."""
        data = validated(serializers.RestoreSerializer, request.data)
        job = services.restore_start(task=task_get(pk), user=request.user, **data)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class RestoreTestView(APIView):
    """Receive the newest copy into a scratch dataset, compare it, remove it: as a job."""

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Start the test; its result is a run of kind "test" in the task's runs."""
        job = services.restore_test_start(task=task_get(pk), user=request.user)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

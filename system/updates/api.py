"""Updates through the API: GET/POST /api/system/update/, POST /api/system/update/roll-back/."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from system.updates import selectors, services
from system.updates.serializers import UpdateStartSerializer, UpdateStatusSerializer


def answer() -> dict[str, Any]:
    """The status as UpdateStatusSerializer reads it."""
    now = selectors.update_status()
    last = asdict(now.last) if now.last else None
    if last:
        last["at"] = datetime.fromtimestamp(last["at"], UTC)
    return {
        **{k: v for k, v in asdict(now).items() if k not in ("trial", "last")},
        "can_roll_back": now.can_roll_back,
        "trial": asdict(now.trial) if now.trial else None,
        "last": last,
    }


class UpdateView(APIView):
    """The box's release, and an update to another."""

    @extend_schema(responses=UpdateStatusSerializer)
    def get(self, request: Request) -> Response:
        """The release running, the slots, a trial under way, how the last one ended."""
        return Response(UpdateStatusSerializer(answer()).data)

    @extend_schema(request=UpdateStartSerializer, responses={202: JobSerializer})
    def post(self, request: Request) -> Response:
        """Check the update file, then (a job) write it into the idle slot and restart into it."""
        data = validated(UpdateStartSerializer, request.data)
        job = services.update_start(user=request.user, **data)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class RollBackView(APIView):
    """Go back to the release in the other slot."""

    @extend_schema(request=None, responses={202: UpdateStatusSerializer})
    def post(self, request: Request) -> Response:
        """The box restarts into it in a few seconds, on the same probation as an update."""
        services.update_roll_back()
        return Response(UpdateStatusSerializer(answer()).data, status=status.HTTP_202_ACCEPTED)

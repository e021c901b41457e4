"""Config backup and restore through the API (under /api/system/).

POST backup/ answers the archive itself (application/octet-stream, as a download); restore/
inspect/ says what an uploaded archive holds; restore/ stages it for the panel's next start.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from system.backups import serializers, services


class BackupView(APIView):
    """This box's config archive, sealed with the passphrase given (kept nowhere)."""

    @extend_schema(
        request=serializers.BackupSerializer,
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The archive, as a file to save."
            )
        },
    )
    def post(self, request: Request) -> HttpResponse:
        """Make the archive and answer it as a file to save."""
        data = validated(serializers.BackupSerializer, request.data)
        made = services.backup_make(passphrase=data["passphrase"])
        response = HttpResponse(made.data, content_type="application/octet-stream")
        response["Content-Disposition"] = f'attachment; filename="{made.name}"'
        return response


class InspectView(APIView):
    """What an uploaded archive holds; nothing is changed."""

    parser_classes = (MultiPartParser,)

    @extend_schema(
        request={"multipart/form-data": serializers.ArchiveSerializer},
        responses={200: serializers.SummarySerializer},
    )
    def post(self, request: Request) -> Response:
        """Open the archive with the passphrase and summarize it."""
        summary = services.backup_inspect(**_uploaded(request))
        return Response(serializers.SummarySerializer(asdict(summary)).data)


class RestoreView(APIView):
    """Stage an uploaded archive: it replaces this box's configuration at the next start."""

    parser_classes = (MultiPartParser,)

    @extend_schema(
        request={"multipart/form-data": serializers.ArchiveSerializer},
        responses={202: serializers.RestoreResultSerializer},
    )
    def post(self, request: Request) -> Response:
        """Check, then stage; restart the panel (reboot the appliance) to apply it."""
        summary = services.restore_stage(**_uploaded(request))
        body = serializers.RestoreResultSerializer({**asdict(summary), "staged": True}).data
        return Response(body, status=status.HTTP_202_ACCEPTED)


def _uploaded(request: Request) -> dict[str, Any]:
    """The uploaded archive's bytes and the passphrase, as the services take them."""
    data = validated(serializers.ArchiveSerializer, request.data)
    return {"data": services.archive_bytes(data["archive"]), "passphrase": data["passphrase"]}

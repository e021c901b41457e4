"""The web certificate through the API (under /api/system/): GET and PUT certificate/, POST
certificate/self-signed/."""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from system.certificates import selectors, services
from system.certificates.engine.certs import CertInfo
from system.certificates.serializers import CertificateSerializer, CertificateUploadSerializer


def _answer(info: CertInfo) -> Response:
    return Response(CertificateSerializer(asdict(info)).data)


class CertificateView(APIView):
    """The certificate the panel is served with."""

    @extend_schema(responses=CertificateSerializer)
    def get(self, request: Request) -> Response:
        """What is in service (404 before the first one is made)."""
        info = selectors.certificate_current()
        if info is None:
            raise NotFound("No web certificate yet: make a self-signed one or upload one.")
        return _answer(info)

    @extend_schema(request=CertificateUploadSerializer, responses=CertificateSerializer)
    def put(self, request: Request) -> Response:
        """Serve this certificate and key; a refusal names its field and changes nothing."""
        data = validated(CertificateUploadSerializer, request.data)
        info = services.certificate_upload(
            certificate=data["certificate"].encode(), key=data["key"].encode()
        )
        return _answer(info)


class SelfSignedView(APIView):
    """A new self-signed certificate for this box's names and addresses."""

    @extend_schema(request=None, responses=CertificateSerializer)
    def post(self, request: Request) -> Response:
        """Make one and serve it (it replaces an uploaded one)."""
        return _answer(services.certificate_self_signed())

"""Encryption API: the encryption roots; lock, unlock and change a root's key."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from nasui.api.bodies import validated
from nasui.api.viewsets import ListViewSet
from storage.encryption import selectors, services
from storage.encryption import serializers as s
from storage.errors import engine_call
from storage.zfs.base import Dataset


def _answer(dataset: Dataset) -> Response:
    return Response(s.KeyRootSerializer(selectors.key_root(dataset)).data)


class EncryptionViewSet(ListViewSet):
    """Encryption roots of every imported pool (what they open inherit their key)."""

    @extend_schema(responses=s.KeyRootSerializer(many=True))
    def list(self, request: Request) -> Response:
        roots = engine_call(selectors.key_roots)
        return self.paginated(request, roots, s.KeyRootSerializer)

    def _act(self, request: Request, body: type[Any], call: Callable[..., Dataset]) -> Response:
        data = validated(body, request.data)
        return _answer(call(**data))

    @extend_schema(request=s.NameSerializer, responses=s.KeyRootSerializer)
    @action(detail=False, methods=["post"])
    def lock(self, request: Request) -> Response:
        """Unmount and unload the root's key: what it opens stops being served."""
        return self._act(request, s.NameSerializer, services.lock)

    @extend_schema(request=s.UnlockSerializer, responses=s.KeyRootSerializer)
    @action(detail=False, methods=["post"])
    def unlock(self, request: Request) -> Response:
        """Load the root's key (the passphrase, or its key file) and serve what it opens."""
        return self._act(request, s.UnlockSerializer, services.unlock)

    @extend_schema(
        request=s.ExportSerializer,
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The key file, to keep apart from the box."
            )
        },
    )
    @action(detail=False, methods=["post"])
    def export(self, request: Request) -> HttpResponse:
        """Every key kept on the appliance, in a file sealed with the passphrase given."""
        made = services.keys_export(**validated(s.ExportSerializer, request.data))
        response = HttpResponse(made.content, content_type="application/octet-stream")
        response["Content-Disposition"] = f'attachment; filename="{made.filename}"'
        response["X-Nasui-Roots"] = ",".join(made.roots)
        return response

    @extend_schema(
        request={"multipart/form-data": s.ImportSerializer}, responses=s.ImportedSerializer
    )
    @action(detail=False, methods=["post"], url_path="import", parser_classes=[MultiPartParser])
    def import_keys(self, request: Request) -> Response:
        """Keep a key file's keys for the roots here that they open, and unlock those."""
        data = validated(s.ImportSerializer, request.data)
        content = services.key_file_bytes(data["file"])
        done = services.keys_import(content=content, passphrase=data["passphrase"])
        return Response(s.ImportedSerializer(asdict(done)).data)

    @extend_schema(request=s.ChangeKeySerializer, responses=s.KeyRootSerializer)
    @action(detail=False, methods=["post"], url_path="change-key")
    def change_key(self, request: Request) -> Response:
        """A new passphrase or generated key for an unlocked root; the data stays as it is."""
        data = validated(s.ChangeKeySerializer, request.data)
        return _answer(services.change_key(data.pop("name"), **data))

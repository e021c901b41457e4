"""Encryption API: the encryption roots; lock, unlock and change a root's key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
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

    @extend_schema(request=s.ChangeKeySerializer, responses=s.KeyRootSerializer)
    @action(detail=False, methods=["post"], url_path="change-key")
    def change_key(self, request: Request) -> Response:
        """A new passphrase or generated key for an unlocked root; the data stays as it is."""
        data = validated(s.ChangeKeySerializer, request.data)
        return _answer(services.change_key(data.pop("name"), **data))

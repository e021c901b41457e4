"""The network through the API: GET and PUT /api/system/network/, POST confirm/ and undo/."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from system.network import runtime, selectors, services
from system.network.engine.networkd import Interface, Network, as_dict
from system.network.serializers import ConfirmSerializer, NetworkSerializer


def answer(network: Network, token: str | None = None) -> dict[str, Any]:
    """The settings in force and the machine's state, as NetworkSerializer reads them."""
    waiting = selectors.pending_change()
    undone = selectors.last_undone()
    return {
        **as_dict(network),
        "present": [asdict(item) for item in selectors.interfaces_present()],
        "pending": {"deadline": waiting.deadline, "applied": waiting.applied} if waiting else None,
        "last_undone": {"reason": undone[0], "at": undone[1]} if undone else None,
        "applied": runtime.applies(),
        "token": token,
    }


class NetworkView(APIView):
    """The box's host name, interfaces and DNS servers."""

    @extend_schema(responses=NetworkSerializer)
    def get(self, request: Request) -> Response:
        """The settings in force, the interfaces present, a change waiting."""
        return Response(NetworkSerializer(answer(selectors.network_current())).data)

    @extend_schema(request=NetworkSerializer, responses=NetworkSerializer)
    def put(self, request: Request) -> Response:
        """Set them all; a change of the interfaces answers with a token to confirm within
        60 s through the new address. A refusal names its field and changes nothing."""
        data = validated(NetworkSerializer, request.data)
        network = Network(
            hostname=data["hostname"],
            interfaces=tuple(
                Interface(**{**item, "addresses": tuple(item["addresses"])})
                for item in data["interfaces"]
            ),
            dns=tuple(data["dns"]),
        )
        change = services.network_update(network)
        return Response(NetworkSerializer(answer(change.network, change.token)).data)


class NetworkConfirmView(APIView):
    """Keep the change waiting for a confirmation."""

    @extend_schema(request=ConfirmSerializer, responses=NetworkSerializer)
    def post(self, request: Request) -> Response:
        """Through one of the change's static addresses, when it sets some."""
        token = validated(ConfirmSerializer, request.data)["token"]
        network = services.network_confirm(token, arrived_at=selectors.arrived_at(request.META))
        return Response(NetworkSerializer(answer(network)).data)


class NetworkUndoView(APIView):
    """Undo the change waiting for a confirmation now."""

    @extend_schema(request=None, responses=NetworkSerializer)
    def post(self, request: Request) -> Response:
        """The settings before it are back (nothing waiting: nothing changes)."""
        services.network_undo()
        return Response(NetworkSerializer(answer(selectors.network_current())).data)

"""Services API: list iSCSI, SMB and NFS, start/stop/restart one, turn its start at boot on/off."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from sharing.control import selectors, services
from sharing.control import serializers as s

NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="iscsi, smb or nfs.")
ACTION = OpenApiParameter(
    "action", str, OpenApiParameter.PATH, description="start, stop or restart."
)


def _found(read: Any, **kwargs: Any) -> Any:
    """`read(**kwargs)`, with an unknown service name as a 404 that names the services."""
    try:
        return read(**kwargs)
    except selectors.UnknownService as exc:
        raise NotFound(str(exc)) from exc


class ServiceListView(APIView):
    """Every service the panel controls."""

    @extend_schema(responses=s.ServiceSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.ServiceSerializer(selectors.service_list(), many=True).data)


class ServiceDetailView(APIView):
    """One service; PATCH turns its start at boot on or off, POST runs an action now."""

    @extend_schema(parameters=[NAME], responses=s.ServiceSerializer)
    def get(self, request: Request, name: str) -> Response:
        return Response(s.ServiceSerializer(_found(selectors.service_get, name=name)).data)

    @extend_schema(
        parameters=[NAME], request=s.ServiceEnableSerializer, responses=s.ServiceSerializer
    )
    def patch(self, request: Request, name: str) -> Response:
        _found(selectors.service_check, name=name)  # an unknown name is a 404 before any 400
        enable = validated(s.ServiceEnableSerializer, request.data)["enable"]
        return Response(
            s.ServiceSerializer(services.service_enable_set(name=name, enable=enable)).data
        )

    @extend_schema(
        operation_id="services_action",
        parameters=[NAME],
        request=s.ServiceActionSerializer,
        responses=s.ServiceSerializer,
    )
    def post(self, request: Request, name: str) -> Response:
        _found(selectors.service_check, name=name)
        action = validated(s.ServiceActionSerializer, request.data)["action"]
        return _act(name, action)


class ServiceActionView(APIView):
    """Start, stop or restart a service now (the action in the path)."""

    @extend_schema(
        operation_id="services_action_in_path",
        parameters=[NAME, ACTION],
        request=None,
        responses=s.ServiceSerializer,
    )
    def post(self, request: Request, name: str, action: str) -> Response:
        return _act(name, action)


def _act(name: str, action: str) -> Response:
    """Run the action; 404 for an unknown service, 400 naming `action` for a bad or refused one."""
    return Response(
        s.ServiceSerializer(_found(services.service_act, name=name, action=action)).data
    )

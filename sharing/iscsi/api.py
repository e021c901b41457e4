"""iSCSI API: every object of the configuration, writes through the services."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from nasui.api.viewsets import ConfigViewSet, kept
from nasui.validation import fail
from sharing.iscsi import runtime, selectors, services
from sharing.iscsi import serializers as s
from sharing.iscsi.services import wizard
from sharing.models import IscsiSettings, TargetExtent


class PortalViewSet(ConfigViewSet):
    """Portals: the addresses the target listens on."""

    serializer_class = s.PortalSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.portal_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.portal_create(addresses=data["addresses"], comment=data.get("comment", ""))

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        addresses = data.get("addresses") or [a.address for a in obj.addresses.all()]
        return services.portal_update(portal=obj, addresses=addresses, **kept(obj, data, "comment"))

    def delete_via_service(self, obj: Any) -> None:
        services.portal_delete(portal=obj)


class InitiatorGroupViewSet(ConfigViewSet):
    """Initiator groups: which initiators may connect."""

    serializer_class = s.InitiatorGroupSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.initiator_group_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.initiator_group_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        fields = kept(obj, data, "initiators", "networks", "comment")
        return services.initiator_group_update(group=obj, **fields)

    def delete_via_service(self, obj: Any) -> None:
        services.initiator_group_delete(group=obj)


class AuthGroupViewSet(ConfigViewSet):
    """CHAP auth groups; secrets are write-only."""

    serializer_class = s.AuthGroupSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.auth_group_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        # A secret left out is "" here, so the service names the field and its rule.
        secrets = {"secret": data.get("secret", ""), "peer_secret": data.get("peer_secret", "")}
        return services.auth_group_create(
            tag=data["tag"], user=data["user"], peer_user=data.get("peer_user", ""), **secrets
        )

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        # Secrets are write-only: one left out of a PATCH is "", which keeps the stored one.
        secrets = {"secret": data.get("secret", ""), "peer_secret": data.get("peer_secret", "")}
        return services.auth_group_update(
            group=obj, **kept(obj, data, "user", "peer_user"), **secrets
        )

    def delete_via_service(self, obj: Any) -> None:
        services.auth_group_delete(group=obj)


class TargetViewSet(ConfigViewSet):
    """Targets with their portal entries."""

    serializer_class = s.TargetSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.target_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.target_create(
            name=data["name"], alias=data.get("alias", ""), groups=data["groups"]
        )

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        current = [
            {
                "portal": g.portal,
                "initiator_group": g.initiator_group,
                "auth_method": g.auth_method,
                "auth_group": g.auth_group,
            }
            for g in obj.groups.all()
        ]
        return services.target_update(
            target=obj, **kept(obj, data, "name", "alias"), groups=data.get("groups", current)
        )

    def delete_via_service(self, obj: Any) -> None:
        services.target_delete(target=obj)


class ExtentViewSet(ConfigViewSet):
    """Extents: the zvols and files behind LUNs."""

    def get_serializer_class(self) -> type[Any]:
        if self.action in ("update", "partial_update"):
            return s.ExtentUpdateSerializer
        return s.ExtentSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.extent_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.extent_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        fields = kept(obj, data, "readonly", "enabled", "comment")
        return services.extent_update(extent=obj, **fields)

    def delete_via_service(self, obj: Any) -> None:
        services.extent_delete(extent=obj)


class AssociationViewSet(ConfigViewSet):
    """Extent-to-target mappings (LUNs)."""

    serializer_class = s.AssociationSerializer
    http_method_names = ["get", "post", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[TargetExtent]:
        return selectors.association_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.association_create(
            target=data["target"], extent=data["extent"], lun_id=data.get("lun_id")
        )

    def delete_via_service(self, obj: Any) -> None:
        services.association_delete(association=obj)


class SettingsView(APIView):
    """Global iSCSI settings."""

    @extend_schema(responses=s.SettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.SettingsSerializer(IscsiSettings.load()).data)

    @extend_schema(request=s.SettingsSerializer, responses=s.SettingsSerializer)
    def put(self, request: Request) -> Response:
        row = services.settings_update(**validated(s.SettingsSerializer, request.data))
        return Response(s.SettingsSerializer(row).data)


class WizardView(APIView):
    """Share a new or existing zvol with one call: zvol, extent, target and LUN, or nothing."""

    @extend_schema(request=s.WizardSerializer, responses={201: s.TargetSerializer})
    def post(self, request: Request) -> Response:
        data = validated(s.WizardSerializer, request.data)
        if not data["existing"] and not data["dataset"]:
            raise fail("dataset", "Name the pool or dataset for the new zvol, or `existing`.")
        result = wizard.share(parent=data.pop("dataset"), **data)
        return Response(s.TargetSerializer(result.target).data, status=status.HTTP_201_CREATED)


class ServiceView(APIView):
    """The target service: engine, running state and connected sessions."""

    @extend_schema(responses=dict)
    def get(self, request: Request) -> Response:
        found = runtime.IscsiRuntime().status()
        body = {key: getattr(found, key) for key in ("engine", "running", "sessions", "actions")}
        return Response(body | ({"message": found.message} if found.message else {}))

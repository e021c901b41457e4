"""Channels API (/api/alerts/channels/): settings, a test message, failed notices and a retry."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from monitoring.channels import selectors
from monitoring.channels.serializers import ChannelSerializer, NoticeSerializer
from monitoring.channels.services import channels as services
from monitoring.channels.services import delivery
from monitoring.models import Channel
from nasui.api.viewsets import ConfigViewSet

Detail = inline_serializer("ChannelActionResult", {"detail": serializers.CharField()})


class ChannelViewSet(ConfigViewSet):
    """Notification channels besides e-mail; secrets are write-only."""

    serializer_class = ChannelSerializer
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> QuerySet[Channel]:
        """Every channel by name, with its counts of waiting and failed notices."""
        return selectors.channels()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        """Checked by the kind's rules."""
        data.pop("forget", None)
        return services.channel_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        """Omitted fields and empty secrets keep their values."""
        return services.channel_update(obj, **data)

    def delete_via_service(self, obj: Any) -> None:
        """With its notices."""
        services.channel_delete(obj)

    @extend_schema(request=None, responses=Detail)
    @action(detail=True, methods=["post"])
    def test(self, request: Request, pk: str) -> Response:
        """Send a test message now; 400 with the service's answer when it fails."""
        return Response({"detail": services.send_test(self.get_object())})

    @extend_schema(request=None, responses=NoticeSerializer(many=True))
    @action(detail=True, methods=["get"])
    def failed(self, request: Request, pk: str) -> Response:
        """The notices that could not be delivered, newest first (paginated)."""
        page = self.paginate_queryset(selectors.failed_notices(self.get_object()))
        return self.get_paginated_response(NoticeSerializer(page, many=True).data)

    @extend_schema(request=None, responses=Detail)
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, pk: str) -> Response:
        """Send the failed notices again at the next round."""
        count = delivery.notices_retry(self.get_object())
        return Response({"detail": f"{count} notice(s) will be sent again."})

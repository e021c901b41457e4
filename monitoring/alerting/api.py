"""Alerts API (mounted at /api/alerts/): list, dismiss, the e-mail settings and a test mail."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from monitoring.alerting import selectors
from monitoring.alerting.serializers import AlertRecordSerializer, MailSettingsSerializer
from monitoring.alerting.services import lifecycle
from monitoring.alerting.services import mail as mail_settings
from monitoring.models import AlertRecord
from nasui.api.bodies import validated

STATES = ("open", "dismissed", "cleared")


class AlertViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):  # type: ignore[type-arg]
    """Alerts, open ones first; ?state=open (undismissed), dismissed or cleared filters them."""

    serializer_class = AlertRecordSerializer
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> QuerySet[AlertRecord]:
        """All alerts, or those in the ?state= asked for."""
        state = self.request.query_params.get("state")
        if state == "open":
            return selectors.active()
        if state == "dismissed":
            return selectors.dismissed()
        if state == "cleared":
            return selectors.history()
        if state:
            raise serializers.ValidationError({"state": f"Choose one of: {', '.join(STATES)}."})
        return AlertRecord.objects.order_by("-raised_at", "-id")

    @extend_schema(parameters=[OpenApiParameter("state", str, enum=list(STATES))])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Alerts, paginated."""
        lifecycle.refresh_worker_alert()
        return super().list(request, *args, **kwargs)

    @extend_schema(request=None, responses=AlertRecordSerializer)
    @action(detail=True, methods=["post"])
    def dismiss(self, request: Request, pk: str) -> Response:
        """Hide an open alert until it clears (400 when it has already cleared)."""
        alert = lifecycle.alert_dismiss(alert=self.get_object(), user=request.user)  # type: ignore[arg-type]
        return Response(AlertRecordSerializer(alert).data)


class MailSettingsView(APIView):
    """Read or change the e-mail settings (PUT and PATCH both keep omitted fields)."""

    @extend_schema(responses=MailSettingsSerializer)
    def get(self, request: Request) -> Response:
        """The settings, without the password."""
        return Response(MailSettingsSerializer(mail_settings.mail_settings_get()).data)

    @extend_schema(request=MailSettingsSerializer, responses=MailSettingsSerializer)
    def put(self, request: Request) -> Response:
        """Change the fields sent; an empty or omitted password keeps the stored one, a null one
        (or clear_password) forgets it. `warnings` says what is allowed but unwise."""
        changes = validated(MailSettingsSerializer, request.data, partial=True)
        saved = mail_settings.mail_settings_update(**changes)
        return Response(MailSettingsSerializer(saved).data)

    @extend_schema(request=MailSettingsSerializer, responses=MailSettingsSerializer)
    def patch(self, request: Request) -> Response:
        """Same as PUT."""
        return self.put(request)


class MailTestView(APIView):
    """Send a test mail with the saved settings; 400 with the SMTP error in words if it fails."""

    @extend_schema(
        request=None,
        responses=inline_serializer("MailTestResult", {"detail": serializers.CharField()}),
    )
    def post(self, request: Request) -> Response:
        """Send it now and say how it went."""
        return Response({"detail": mail_settings.send_test_mail()})

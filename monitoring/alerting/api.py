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

from monitoring.alerting import lifecycle, mail_settings, selectors
from monitoring.alerting.models import AlertRecord, MailSettings, MailState, Security
from nasui.api.bodies import validated

MAX_RECIPIENTS = 20
STATES = ("open", "dismissed", "cleared")
MAIL_STATES = "The mail of this event: " + "; ".join(
    f"'{value}' {label.lower()}" for value, label in MailState.choices
)


class AlertRecordSerializer(serializers.ModelSerializer[AlertRecord]):
    """One alert: what, how bad, when raised, cleared or dismissed, and its mails."""

    is_open = serializers.BooleanField(read_only=True)
    # plain strings: one enum for both would get two names in the schema
    raise_mail = serializers.CharField(read_only=True, help_text=MAIL_STATES)
    clear_mail = serializers.CharField(read_only=True, help_text=MAIL_STATES)
    dismissed_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = AlertRecord
        fields = [
            "id", "key", "source", "level", "kind", "subject", "title", "text", "is_open",
            "raised_at", "seen_at", "cleared_at", "dismissed_at", "dismissed_by",
            "raise_mail", "clear_mail",
        ]  # fmt: skip
        read_only_fields = fields


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
        selectors.refresh_worker_alert()
        return super().list(request, *args, **kwargs)

    @extend_schema(request=None, responses=AlertRecordSerializer)
    @action(detail=True, methods=["post"])
    def dismiss(self, request: Request, pk: str) -> Response:
        """Hide an open alert until it clears (400 when it has already cleared)."""
        alert = lifecycle.alert_dismiss(alert=self.get_object(), user=request.user)  # type: ignore[arg-type]
        return Response(AlertRecordSerializer(alert).data)


class MailSettingsSerializer(serializers.ModelSerializer[MailSettings]):
    """The SMTP settings; the password can be written but is never returned."""

    password = serializers.CharField(
        write_only=True, required=False, allow_blank=True, max_length=255,
        help_text="Write-only. Omit it or send it empty to keep the stored password.",
    )  # fmt: skip
    has_password = serializers.SerializerMethodField()
    security = serializers.ChoiceField(choices=Security.choices, required=False)
    to_addresses = serializers.ListField(
        child=serializers.EmailField(), required=False, max_length=MAX_RECIPIENTS
    )
    port = serializers.IntegerField(min_value=1, max_value=65535, required=False)

    class Meta:
        model = MailSettings
        fields = [
            "enabled", "host", "port", "security", "username", "password", "has_password",
            "from_address", "to_addresses", "ca_file", "last_sent_at", "last_error",
            "last_error_at",
        ]  # fmt: skip
        read_only_fields = ["last_sent_at", "last_error", "last_error_at"]

    def get_has_password(self, config: MailSettings) -> bool:
        """Whether a password is stored (its value never leaves the server)."""
        return bool(config.password)


class MailSettingsView(APIView):
    """Read or change the e-mail settings (PUT and PATCH both keep omitted fields)."""

    @extend_schema(responses=MailSettingsSerializer)
    def get(self, request: Request) -> Response:
        """The settings, without the password."""
        return Response(MailSettingsSerializer(mail_settings.mail_settings_get()).data)

    @extend_schema(request=MailSettingsSerializer, responses=MailSettingsSerializer)
    def put(self, request: Request) -> Response:
        """Change the fields sent; an empty or omitted password keeps the stored one."""
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

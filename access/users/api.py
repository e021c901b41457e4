"""Panel users through the API: /api/access/users/ (administrators change them)."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet

from access.twofactor import services as twofactor
from access.users import selectors, services
from access.users.engine import roles
from access.users.serializers import PanelUserSerializer
from nasui.api.viewsets import ConfigViewSet
from nasui.pages import current_user


class PanelUserViewSet(ConfigViewSet):
    """The users of the panel and their roles; passwords are write-only."""

    serializer_class = PanelUserSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.panel_users()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        user = services.user_create(
            username=data["username"], password=data.get("password", ""), role=data["role"]
        )
        if "two_factor_required" in data:
            twofactor.required_set(user=user, required=data["two_factor_required"])
        return user

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        user = services.user_update(
            user=obj,
            role=data.get("role") or selectors.role_of(obj) or roles.READ_ONLY,
            is_active=data.get("is_active", obj.is_active),
            username=data.get("username"),
            by=current_user(self.request),
        )
        if data.get("password"):
            services.user_password_set(user=user, password=data["password"])
        if "two_factor_required" in data:
            twofactor.required_set(user=user, required=data["two_factor_required"])
        return user

    def delete_via_service(self, obj: Any) -> None:
        services.user_delete(user=obj, by=current_user(self.request))

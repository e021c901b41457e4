"""File-sharing API: local users and groups, SMB settings and shares; writes through services."""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet

from nasui.api.viewsets import ConfigViewSet, kept
from sharing.accounts import selectors, services
from sharing.accounts import serializers as s


class LocalGroupViewSet(ConfigViewSet):
    """Local groups of file-sharing users."""

    serializer_class = s.LocalGroupSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.local_group_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        return services.group_create(**data)

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return services.group_update(group=obj, **kept(obj, data, "name", "comment"))

    def delete_via_service(self, obj: Any) -> None:
        services.group_delete(group=obj)


_USER_FIELDS = ("full_name", "email", "disabled", "home_dataset")


class LocalUserViewSet(ConfigViewSet):
    """Local users of the file shares; passwords are write-only."""

    serializer_class = s.LocalUserSerializer

    def get_queryset(self) -> QuerySet[Any]:
        return selectors.local_user_list()

    def create_via_service(self, data: dict[str, Any]) -> Model:
        # A password left out is "" here, so the service names the field and its rule.
        return services.user_create(
            username=data["username"],
            password=data.get("password", ""),
            uid=data.get("uid"),
            group=data.get("group"),
            groups=data.get("groups", ()),
            **{field: data[field] for field in _USER_FIELDS if field in data},
        )

    def update_via_service(self, obj: Any, data: dict[str, Any]) -> Model:
        return services.user_update(
            user=obj,
            group=data.get("group") or obj.group,
            groups=data.get("groups", obj.groups.all()),
            password=data.get("password", ""),
            **kept(obj, data, *_USER_FIELDS),
        )

    def delete_via_service(self, obj: Any) -> None:
        services.user_delete(user=obj)

"""Serializers of the file-sharing API: users and groups, SMB and NFS shares, the wizard."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sharing.models import LocalGroup, LocalUser


class LocalGroupSerializer(serializers.ModelSerializer[LocalGroup]):
    """A local group; the gid is chosen when left out and fixed afterwards."""

    class Meta:
        model = LocalGroup
        fields = ["id", "name", "gid", "comment"]
        extra_kwargs: dict[str, Any] = {
            "name": {"validators": []},
            "gid": {"validators": [], "required": False},
        }


class LocalUserSerializer(serializers.ModelSerializer[LocalUser]):
    """A local user; the password is write-only and kept when an update leaves it out."""

    password = serializers.CharField(
        write_only=True, required=False, allow_blank=True, trim_whitespace=False
    )
    has_password = serializers.BooleanField(read_only=True)
    group = serializers.PrimaryKeyRelatedField(
        queryset=LocalGroup.objects.all(),
        required=False,
        allow_null=True,
        help_text="Primary group; left out on create, a group named after the user is made.",
    )

    class Meta:
        model = LocalUser
        fields = [
            "id",
            "username",
            "uid",
            "full_name",
            "email",
            "password",
            "has_password",
            "group",
            "groups",
            "disabled",
            "home_dataset",
            "password_set_at",
        ]
        read_only_fields = ["password_set_at"]
        extra_kwargs: dict[str, Any] = {
            "username": {"validators": []},
            "uid": {"validators": [], "required": False},
        }

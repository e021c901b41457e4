"""Panel users through the API: the password is written, never read."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers

from access.twofactor import selectors as twofactor
from access.users.engine import roles
from access.users.selectors import role_of


class PanelUserSerializer(serializers.ModelSerializer[User]):
    """A panel user: name, role, whether they may sign in, when they last did."""

    role = serializers.ChoiceField(choices=list(roles.LABELS.items()), default=roles.READ_ONLY)
    password = serializers.CharField(
        write_only=True,
        required=False,
        trim_whitespace=False,
        max_length=4096,
        style={"input_type": "password"},
        help_text="Needed to create a user; given on an update, it replaces theirs.",
    )

    two_factor = serializers.SerializerMethodField(
        help_text="Whether they sign in with a code from an authenticator app."
    )
    two_factor_required = serializers.BooleanField(
        required=False, help_text="They must sign in with a code (set up at their next sign-in)."
    )

    class Meta:
        model = User
        fields = ("id", "username", "role", "is_active", "two_factor", "two_factor_required",
                  "password", "last_login", "date_joined")  # fmt: skip
        read_only_fields = ("last_login", "date_joined")
        # The service says why a name is taken (in its words, under the field).
        extra_kwargs: dict[str, dict[str, Any]] = {"username": {"validators": []}}

    def to_representation(self, instance: User) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["role"] = role_of(instance) or roles.READ_ONLY
        data["two_factor_required"] = twofactor.required_alone(instance)
        return data

    def get_two_factor(self, instance: User) -> bool:
        return twofactor.enrolled(instance)

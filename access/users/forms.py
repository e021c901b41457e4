"""The panel user forms: add one (name, role, password twice), or change one."""

from __future__ import annotations

from typing import Any

from django import forms

from access.users.engine import roles
from nasui.forms import StyledForm

NEW_PASSWORD = {"autocomplete": "new-password"}
ROLE_CHOICES = [(key, f"{label}: {roles.DESCRIPTIONS[key]}") for key, label in roles.LABELS.items()]


class PanelUserForm(StyledForm):
    """Add a user (with a password), or change one's role, state or password."""

    username = forms.CharField(
        max_length=150, label="User name", help_text="What they sign in with; it cannot change."
    )
    role = forms.ChoiceField(choices=ROLE_CHOICES, initial=roles.READ_ONLY)
    is_active = forms.BooleanField(
        required=False, initial=True, label="May sign in",
        help_text="Switched off, they cannot sign in and their tokens stop working.",
    )  # fmt: skip
    require_code = forms.BooleanField(
        required=False,
        label="Must sign in with a code",
        help_text="Two-factor sign-in: set up at their next sign-in, before anything else.",
    )
    password = forms.CharField(
        required=False, strip=False, widget=forms.PasswordInput(attrs=NEW_PASSWORD),
        help_text="Editing a user: leave both empty to keep their password.",
    )  # fmt: skip
    password_again = forms.CharField(
        required=False, strip=False, label="Password again",
        widget=forms.PasswordInput(attrs=NEW_PASSWORD),
    )  # fmt: skip

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.editing = editing
        if editing:
            self.fields["username"].disabled = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password", "") != data.get("password_again", ""):
            self.add_error("password_again", "The two passwords differ: type the same one twice.")
        return data

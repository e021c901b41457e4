"""Forms of the file-sharing pages: users and groups, SMB and NFS shares, the share wizard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from nasui.forms import StyledForm
from sharing.accounts.engine.desired import NAME_RULE
from sharing.accounts.services import PASSWORD_MAX, PASSWORD_MIN
from sharing.models import LocalGroup, LocalUser

NEW_GROUP = ""  # the primary-group choice that makes a group named after the user


def password_field(label: str, required: bool, help_text: str = "") -> forms.CharField:
    """A password box that is never filled back in; browsers offer to make a new password."""
    return forms.CharField(
        label=label,
        required=required,
        max_length=PASSWORD_MAX,
        strip=False,
        help_text=help_text,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


def members(queryset: Any) -> list[tuple[str, str]]:
    return [(str(obj.pk), str(obj)) for obj in queryset]


class LocalGroupForm(StyledForm):
    """A local group; its gid is chosen on creation and fixed afterwards."""

    name = forms.CharField(max_length=32, help_text=f"{NAME_RULE}.")
    gid = forms.IntegerField(
        required=False, label="GID", help_text="Empty: the next free number from 3000."
    )
    comment = forms.CharField(required=False, max_length=120)

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:
            del self.fields["gid"]


class LocalUserForm(StyledForm):
    """A local user of the file shares (not a login to this panel)."""

    username = forms.CharField(max_length=32, help_text=f"{NAME_RULE}.")
    full_name = forms.CharField(required=False, max_length=120, label="Full name")
    email = forms.EmailField(required=False, label="E-mail")
    password = password_field(
        "Password", True, f"{PASSWORD_MIN} to {PASSWORD_MAX} characters; used for SMB logins."
    )
    password_again = password_field("Password again", True)
    uid = forms.IntegerField(
        required=False, label="UID", help_text="Empty: the next free number from 3000."
    )
    group = forms.ChoiceField(required=False, label="Primary group")
    groups = forms.MultipleChoiceField(
        required=False, label="Other groups", widget=forms.CheckboxSelectMultiple
    )
    home_dataset = forms.ChoiceField(required=False, label="Home dataset")
    disabled = forms.BooleanField(required=False, label="Disabled: may not log in")

    def __init__(
        self, *args: Any, filesystems: Sequence[str], user: LocalUser | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        groups = members(LocalGroup.objects.all())
        first = [(NEW_GROUP, "A new group named after the user")] if user is None else []
        self.set_choices("group", first + groups)
        self.set_choices("groups", groups)
        homes = [("", "None")] + [(name, name) for name in filesystems]
        self.set_choices("home_dataset", homes)
        if user is not None:
            # The name and uid stay: files on disk and the server's records carry them.
            del self.fields["username"], self.fields["uid"]
            for name in ("password", "password_again"):
                self.fields[name].required = False
            self.fields["password"].help_text = "Empty keeps the current password."

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password", "") != data.get("password_again", ""):
            self.add_error("password_again", "The two passwords differ.")
        return data

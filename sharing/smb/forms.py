"""Forms of the SMB pages: a share of a dataset, and the server's settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from nasui.forms import StyledForm
from sharing.accounts.forms import members
from sharing.models import LocalGroup, LocalUser


class SmbShareForm(StyledForm):
    """An SMB share of a dataset, and who may use it."""

    name = forms.CharField(max_length=80, help_text="What Windows and macOS show, e.g. Media.")
    path = forms.ChoiceField(label="Dataset", help_text="The share serves its whole mountpoint.")
    comment = forms.CharField(required=False, max_length=120)
    users = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="Users"
    )
    groups = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Groups",
        help_text="No users and no groups: every local user with a password.",
    )
    read_only = forms.BooleanField(required=False, label="Read-only")
    browseable = forms.BooleanField(required=False, initial=True, label="Shown in the list")
    guest_ok = forms.BooleanField(
        required=False, label="Guests: anyone on the network, without a password"
    )
    shadow_copy = forms.BooleanField(
        required=False, initial=True, label="Previous versions from snapshots"
    )
    fruit = forms.BooleanField(required=False, label="macOS extensions")
    time_machine = forms.BooleanField(required=False, label="Time Machine backups")
    time_machine_limit = forms.CharField(
        required=False, label="Time Machine size limit", help_text="e.g. 500G; empty: none."
    )
    audit = forms.BooleanField(required=False, label="Log every open (audit)")
    enabled = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: Any, mountpoints: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("path", [(path, f"{name} ({path})") for name, path in mountpoints])
        self.set_choices("users", members(LocalUser.objects.all()))
        self.set_choices("groups", members(LocalGroup.objects.all()))
        self.show_when("time_machine_limit", "time_machine=on")


class SmbSettingsForm(StyledForm):
    """The SMB server's names and where it listens."""

    netbios_name = forms.CharField(max_length=15, label="NetBIOS name")
    workgroup = forms.CharField(max_length=15)
    description = forms.CharField(max_length=120, required=False)
    bind = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Listen on",
        help_text="IP addresses, one per line. Empty: every address. SMB1 is never offered.",
    )

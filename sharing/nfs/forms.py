"""Forms of the NFS pages: an export of a dataset, and the server's settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from nasui.forms import StyledForm
from sharing.accounts.forms import members
from sharing.models import LocalGroup, LocalUser
from sharing.nfs.engine.desired import MAP_MODE_HELP, MAP_MODE_LABELS

# The mapping choices, each saying what it does on the server (exports(5)).
MAP_MODE_CHOICES = list(MAP_MODE_LABELS.items())
MAP_USER_HELP = "The anonymous user (anonuid) that root, or everyone, becomes."
MAP_GROUP_HELP = "The anonymous group (anongid). Empty: the user's own group."


class NfsShareForm(StyledForm):
    """An NFS export of a dataset to some networks and hosts."""

    path = forms.ChoiceField(label="Dataset", help_text="The export serves its whole mountpoint.")
    networks = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Networks in CIDR form, one per line, e.g. 192.168.1.0/24.",
    )
    hosts = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Host names or addresses, one per line. Networks or hosts: at least one.",
    )
    read_only = forms.BooleanField(required=False, label="Read-only")
    map_mode = forms.ChoiceField(label="Root and other users", help_text=MAP_MODE_HELP)
    map_user = forms.ChoiceField(required=False, label="Map to user", help_text=MAP_USER_HELP)
    map_group = forms.ChoiceField(required=False, label="Map to group", help_text=MAP_GROUP_HELP)
    comment = forms.CharField(required=False, max_length=120)
    enabled = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: Any, mountpoints: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("path", [(path, f"{name} ({path})") for name, path in mountpoints])
        self.set_choices("map_mode", MAP_MODE_CHOICES)
        users = [("", "—"), *members(LocalUser.objects.all())]
        self.set_choices("map_user", users)
        groups = [("", "—"), *members(LocalGroup.objects.all())]
        self.set_choices("map_group", groups)
        for name in ("map_user", "map_group"):
            self.show_when(name, "map_mode=root,all")


class NfsSettingsForm(StyledForm):
    """NFS versions offered."""

    v3 = forms.BooleanField(
        required=False,
        label="Offer NFSv3 too",
        help_text="NFSv4 (port 2049) is always on; v3 also needs rpcbind and mountd ports.",
    )

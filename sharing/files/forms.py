"""Forms of the file-sharing pages above the protocols: the share wizard, a folder's owner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from nasui.forms import StyledForm
from sharing.accounts.engine.desired import NAME_RULE
from sharing.accounts.forms import members, password_field
from sharing.models import LocalGroup, LocalUser, NfsShare
from sharing.nfs.engine.desired import MAP_MODE_HELP
from sharing.nfs.forms import MAP_GROUP_HELP, MAP_MODE_CHOICES, MAP_USER_HELP


def _lines(label: str, help_text: str) -> forms.CharField:
    """A box of one entry a line (networks, hosts)."""
    return forms.CharField(
        required=False,
        label=label,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=help_text,
    )


class ShareWizardForm(StyledForm):
    """A home user's one form: which dataset, over SMB, NFS or both, and who may use it."""

    existing = forms.ChoiceField(
        required=False, label="Dataset", help_text="Make a new dataset, or share one you have."
    )
    parent = forms.ChoiceField(required=False, label="In pool or dataset")
    name = forms.CharField(required=False, max_length=60, help_text="e.g. family")
    compression = forms.ChoiceField(initial="inherit")
    smb = forms.BooleanField(
        required=False,
        initial=True,
        label="SMB",
        help_text="Windows, macOS and Linux PCs open it with a user name and password.",
    )
    nfs = forms.BooleanField(
        required=False,
        label="NFS",
        help_text="Linux PCs and ESXi mount it; the machines are named by network or address.",
    )
    share_name = forms.CharField(
        required=False, max_length=80, label="Share name", help_text="Empty: the dataset's name."
    )
    users = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label="Users"
    )
    guest_ok = forms.BooleanField(
        required=False, label="Guests too: anyone on the network, without a password"
    )
    new_username = forms.CharField(
        required=False, max_length=32, label="Or a new user", help_text=f"{NAME_RULE}."
    )
    new_password = password_field("New user's password", False)
    new_password_again = password_field("The password again", False)
    networks = _lines("Networks", "Networks in CIDR form, one per line, e.g. 192.168.1.0/24.")
    hosts = _lines(
        "Hosts", "Host names or addresses, one per line. Networks or hosts: one at least."
    )
    map_mode = forms.ChoiceField(
        required=False,
        label="Root and other users",
        initial=NfsShare.MapMode.NONE,
        help_text=f"{MAP_MODE_HELP} With everyone mapped, the folder is that user's.",
    )
    map_user = forms.ChoiceField(required=False, label="Map to user", help_text=MAP_USER_HELP)
    map_group = forms.ChoiceField(required=False, label="Map to group", help_text=MAP_GROUP_HELP)
    read_only = forms.BooleanField(required=False, label="Read-only", help_text="Over SMB and NFS.")

    # (legend, the field that shows the section, its fields): the template draws fieldsets.
    SECTIONS = (
        ("What to share", "", ("existing", "parent", "name", "compression")),
        ("Share it over", "", ("smb", "nfs")),
        ("SMB: who may use it", "smb=on", ("share_name", "users", "guest_ok")),
        (
            "A new user (for SMB, or for NFS to map to)",
            "",
            ("new_username", "new_password", "new_password_again"),
        ),
        (
            "NFS: which machines may mount it",
            "nfs=on",
            ("networks", "hosts", "map_mode", "map_user", "map_group"),
        ),
        ("", "", ("read_only",)),
    )

    def __init__(
        self,
        *args: Any,
        parents: Sequence[str],
        filesystems: Sequence[str],
        compressions: Sequence[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "A new dataset")] + [(name, name) for name in filesystems]
        self.set_choices("existing", choices)
        self.set_choices("parent", [(p, p) for p in parents])
        self.set_choices("compression", [(c, c) for c in compressions])
        users = members(LocalUser.objects.all())
        self.set_choices("users", users)
        self.fields["users"].empty_text = "No users yet: make one below."  # type: ignore[attr-defined]
        self.set_choices("map_mode", MAP_MODE_CHOICES)
        mapped = [("", "The new user above"), *users]
        self.set_choices("map_user", mapped)
        groups = [("", "—"), *members(LocalGroup.objects.all())]
        self.set_choices("map_group", groups)
        for field in ("parent", "name", "compression"):
            self.show_when(field, "existing=")
        for field in ("map_user", "map_group"):
            self.show_when(field, "map_mode=root,all")

    def sections(self) -> list[tuple[str, str, list[forms.BoundField]]]:
        """The form's fieldsets: legend, the rule that shows it, its bound fields."""
        return [(legend, rule, [self[n] for n in names]) for legend, rule, names in self.SECTIONS]

    def clean_map_mode(self) -> str:
        """Root squash unless another mapping is picked (an SMB-only post may leave it out)."""
        return str(self.cleaned_data.get("map_mode") or NfsShare.MapMode.NONE)

    def clean(self) -> dict[str, Any]:
        """At least one protocol: a dataset shared over nothing is not shared."""
        data = super().clean() or {}
        if not data.get("smb") and not data.get("nfs"):
            self.add_error("smb", "Pick SMB, NFS or both.")
        if data.get("new_password") and data.pop("new_password_again", "") != data["new_password"]:
            self.add_error("new_password_again", "The two passwords differ: type the same twice.")
        data.pop("new_password_again", None)
        return data


class PermissionsForm(StyledForm):
    """Owner, group and mode of a dataset's folder."""

    owner = forms.ChoiceField(required=False, label="Owner")
    group = forms.ChoiceField(required=False, label="Group")
    mode = forms.CharField(
        max_length=5, help_text="Octal, e.g. 770: owner and group may read and write, others not."
    )
    recursive = forms.BooleanField(required=False, label="Also everything inside (runs as a job)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        root = [("", "root")]
        self.set_choices("owner", root + members(LocalUser.objects.all()))
        self.set_choices("group", root + members(LocalGroup.objects.all()))

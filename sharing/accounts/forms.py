"""Forms of the file-sharing pages: users and groups, SMB and NFS shares, the share wizard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from nasui.forms import StyledForm
from sharing.accounts.engine.desired import NAME_RULE
from sharing.accounts.services import PASSWORD_MAX, PASSWORD_MIN
from sharing.models import LocalGroup, LocalUser, NfsShare

NEW_GROUP = ""  # the primary-group choice that makes a group named after the user


def _password(label: str, required: bool, help_text: str = "") -> forms.CharField:
    """A password box that is never filled back in; browsers offer to make a new password."""
    return forms.CharField(
        label=label,
        required=required,
        max_length=PASSWORD_MAX,
        strip=False,
        help_text=help_text,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


def _members(queryset: Any) -> list[tuple[str, str]]:
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
    password = _password(
        "Password", True, f"{PASSWORD_MIN} to {PASSWORD_MAX} characters; used for SMB logins."
    )
    password_again = _password("Password again", True)
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
        groups = _members(LocalGroup.objects.all())
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
        self.set_choices("users", _members(LocalUser.objects.all()))
        self.set_choices("groups", _members(LocalGroup.objects.all()))
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
        required=False, widget=forms.CheckboxSelectMultiple, label="Users who may use it"
    )
    guest_ok = forms.BooleanField(
        required=False, label="Guests too: anyone on the network, without a password"
    )
    new_username = forms.CharField(
        required=False, max_length=32, label="Or a new user", help_text=f"{NAME_RULE}."
    )
    new_password = _password("New user's password", False)
    networks = _lines("Networks", "Networks in CIDR form, one per line, e.g. 192.168.1.0/24.")
    hosts = _lines(
        "Hosts", "Host names or addresses, one per line. Networks or hosts: one at least."
    )
    map_mode = forms.ChoiceField(
        required=False,
        label="Root and other users",
        initial=NfsShare.MapMode.NONE,
        help_text="Everyone becomes one user: the folder is theirs, whatever the PC's user ids.",
    )
    map_user = forms.ChoiceField(required=False, label="Map to user")
    map_group = forms.ChoiceField(
        required=False, label="Map to group", help_text="Empty: the user's own group."
    )
    read_only = forms.BooleanField(required=False, label="Read-only", help_text="Over SMB and NFS.")

    # (legend, the field that shows the section, its fields): the template draws fieldsets.
    SECTIONS = (
        ("What to share", "", ("existing", "parent", "name", "compression")),
        ("Share it over", "", ("smb", "nfs")),
        ("SMB: who may use it", "smb=on", ("share_name", "users", "guest_ok")),
        ("A new user (for SMB, or for NFS to map to)", "", ("new_username", "new_password")),
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
        users = _members(LocalUser.objects.all())
        self.set_choices("users", users)
        self.set_choices("map_mode", NfsShare.MapMode.choices)
        mapped = [("", "The new user above"), *users]
        self.set_choices("map_user", mapped)
        groups = [("", "—"), *_members(LocalGroup.objects.all())]
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
        self.set_choices("owner", root + _members(LocalUser.objects.all()))
        self.set_choices("group", root + _members(LocalGroup.objects.all()))


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
    map_mode = forms.ChoiceField(label="Root and other users")
    map_user = forms.ChoiceField(required=False, label="Map to user")
    map_group = forms.ChoiceField(
        required=False, label="Map to group", help_text="Empty: the user's own group."
    )
    comment = forms.CharField(required=False, max_length=120)
    enabled = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: Any, mountpoints: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("path", [(path, f"{name} ({path})") for name, path in mountpoints])
        self.set_choices("map_mode", NfsShare.MapMode.choices)
        users = [("", "—"), *_members(LocalUser.objects.all())]
        self.set_choices("map_user", users)
        groups = [("", "—"), *_members(LocalGroup.objects.all())]
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

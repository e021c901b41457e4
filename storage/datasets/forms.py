"""Forms of the storage pages; the rules themselves live in services and validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from nasui.forms import StyledForm
from nasui.lib.units import format_size
from storage import registry
from storage import validation as v
from storage.ownership.selectors import Ownership


def _size_choices(sizes: list[int], default_label: str) -> list[tuple[str, str]]:
    return [("", default_label)] + [(str(s), format_size(s)) for s in sizes]


def _choices(values: list[str]) -> list[tuple[str, str]]:
    return [(value, value) for value in values]


ACLTYPE_CHOICES = [("inherit", "inherit"), ("posix", "POSIX"), ("off", "off")]


def _account_choices(ids: dict[str, int], current: int | None, kind: str) -> list[tuple[str, str]]:
    """root and the panel's accounts by name, plus the present id when no account has it."""
    choices = [(name, name) for name in ids]
    if current is not None and registry.name_of(ids, current) is None:
        choices.append((str(current), f"{kind} {current} (no panel account)"))
    return choices


def label_inherit(form: forms.Form, inherited: Mapping[str, str]) -> None:
    """Say what "inherit" gives on each property's choice: "inherit (lz4 from tank)"."""
    for name, words in inherited.items():
        field = form.fields.get(name)
        if not isinstance(field, forms.ChoiceField):
            continue
        choices: list[tuple[Any, Any]] = list(field.choices)  # type: ignore[arg-type]
        field.choices = [
            (value, f"{label} ({words})" if label == "inherit" else label)
            for value, label in choices
        ]


def _sync_field() -> forms.TypedChoiceField:
    """sync for datasets and zvols, with what each value risks."""
    return forms.TypedChoiceField(
        choices=_choices(v.SYNC_FORM_CHOICES),
        initial="inherit",
        required=False,
        empty_value=None,  # not sent: left as it is
        help_text=v.SYNC_HELP,
    )


class DatasetPropertiesForm(StyledForm):
    """Properties a file system can set or inherit, and its folder's owner and mode."""

    # Shown under their own heading: they act on the mountpoint, not on ZFS.
    permission_names = ("owner", "group", "mode", "permissions_recursive")

    compression = forms.ChoiceField(choices=_choices(v.COMPRESSION_FORM_CHOICES), initial="inherit")
    dedup = forms.ChoiceField(
        choices=_choices(v.DEDUP_FORM_CHOICES),
        initial="inherit",
        help_text="Dedup keeps a table of every block in RAM: read the estimate first.",
    )
    recordsize = forms.TypedChoiceField(
        choices=_size_choices(v.RECORDSIZES, "inherit"),
        coerce=int,
        empty_value=None,
        required=False,
        label="Record size",
    )
    atime = forms.ChoiceField(choices=_choices(["inherit", "on", "off"]), initial="inherit")
    sync = _sync_field()
    acltype = forms.ChoiceField(
        choices=ACLTYPE_CHOICES,
        initial="inherit",
        required=False,
        label="ACL type",
        help_text="POSIX: access lists (setfacl) beyond owner, group and mode; also sets xattr=sa.",
    )
    quota = forms.CharField(required=False, help_text="e.g. 500G; empty: none")
    reservation = forms.CharField(required=False, help_text="e.g. 10G; empty: none")
    comment = forms.CharField(required=False, max_length=200)
    owner = forms.ChoiceField(required=False, label="Owner (user)")
    group = forms.ChoiceField(required=False, label="Owner group")
    mode = forms.CharField(
        required=False,
        max_length=5,
        help_text="Octal, e.g. 0770: owner and group may do everything, others nothing.",
    )
    permissions_recursive = forms.BooleanField(
        required=False,
        label="Apply owner and mode to everything inside (runs as a job)",
    )

    def __init__(
        self,
        *args: Any,
        ownership: Ownership | None = None,
        folder: bool = True,
        inherited: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        """Owner and group choices: root, the panel's accounts, and the folder's present ones.

        `inherited` says, per property, what "inherit" gives (an edit form shows it).
        """
        super().__init__(*args, **kwargs)
        label_inherit(self, inherited or {})
        if not folder:
            # Not mounted: no folder to own, and its properties must stay editable.
            for name in self.permission_names:
                del self.fields[name]
            return
        known = registry.accounts()
        self.set_choices(
            "owner",
            _account_choices(dict(known.users), ownership.uid if ownership else None, "uid"),
        )
        self.set_choices(
            "group",
            _account_choices(dict(known.groups), ownership.gid if ownership else None, "gid"),
        )


ENCRYPTION_LABELS = [
    ("inherit", "As its parent (encrypted under an encrypted parent)"),
    ("off", "Off"),
    ("passphrase", "On, opened by a passphrase (typed after each boot)"),
    ("key", "On, with a key kept on this appliance (unlocks at boot)"),
]


def _passphrase(label: str, **attrs: str) -> forms.CharField:
    """A passphrase box: never shown again after a refusal (render_value=False)."""
    widget = forms.PasswordInput(
        render_value=False, attrs={"autocomplete": "new-password", **attrs}
    )
    return forms.CharField(required=False, strip=False, label=label, widget=widget)


class EncryptionFields(StyledForm):
    """How a new file system or zvol is encrypted: fixed once it exists, only the key changes."""

    encryption = forms.ChoiceField(
        choices=ENCRYPTION_LABELS,
        initial="inherit",
        required=False,
        help_text="AES-256-GCM. Cannot be turned on or off once created; the key or passphrase "
        "can change later. A key kept on the appliance protects the disks (sold, sent back, "
        "stolen alone), not a whole box taken with its stick.",
    )
    passphrase = _passphrase("Passphrase", **{"data-strength": "1"})
    passphrase_confirm = _passphrase("Passphrase again")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[
            "passphrase"
        ].help_text = (
            "8 to 512 characters, never stored: without it the data cannot be read, by anyone."
        )
        self.fields["passphrase"].strength_meter = True  # type: ignore[attr-defined]
        for name in ("passphrase", "passphrase_confirm"):
            self.show_when(name, "encryption=passphrase")

    def clean_encryption(self) -> str:
        return self.cleaned_data.get("encryption") or "inherit"


class DatasetCreateForm(DatasetPropertiesForm, EncryptionFields):
    """A new file system under a parent dataset."""

    parent = forms.ChoiceField()
    name = forms.CharField(max_length=100)
    field_order = ["parent", "name", "encryption", "passphrase", "passphrase_confirm"]

    def __init__(self, *args: Any, parents: list[str], **kwargs: Any) -> None:
        """Parents to pick from; no recursive apply (nothing is inside yet)."""
        super().__init__(*args, **kwargs)
        self.set_choices("parent", _choices(parents))
        # A new file system is empty: there is nothing inside to apply owner and mode to.
        del self.fields["permissions_recursive"]
        self.fields["mode"].help_text = "Octal, e.g. 0770; empty: 0755 as ZFS makes it."


class ZvolPropertiesForm(StyledForm):
    """Properties of a zvol that can change after creation."""

    permission_names: tuple[str, ...] = ()  # a zvol has no folder (the page template asks)

    size = forms.CharField(help_text="e.g. 20G (units K, M, G, T); a zvol can only grow.")
    compression = forms.ChoiceField(choices=_choices(v.COMPRESSION_FORM_CHOICES), initial="inherit")
    dedup = forms.ChoiceField(choices=_choices(v.DEDUP_FORM_CHOICES), initial="inherit")
    sync = _sync_field()
    comment = forms.CharField(required=False, max_length=200)

    def __init__(
        self, *args: Any, inherited: Mapping[str, str] | None = None, **kwargs: Any
    ) -> None:
        """`inherited` says, per property, what "inherit" gives (an edit form shows it)."""
        super().__init__(*args, **kwargs)
        label_inherit(self, inherited or {})


class ZvolCreateForm(ZvolPropertiesForm, EncryptionFields):
    """A new zvol (block volume) under a parent dataset."""

    parent = forms.ChoiceField()
    name = forms.CharField(max_length=100)
    volblocksize = forms.TypedChoiceField(
        choices=[(str(s), format_size(s)) for s in v.VOLBLOCKSIZES],
        coerce=int,
        initial=str(v.DEFAULT_VOLBLOCKSIZE),
        label="Block size",
        help_text="16K suits most uses; small blocks lose most of the compression gain.",
    )
    sparse = forms.BooleanField(required=False, label=v.SPARSE_LABEL)
    force = forms.BooleanField(required=False, label=v.FORCE_LABEL)
    field_order = [
        "parent", "name", "size", "volblocksize", "sparse", "encryption", "passphrase",
        "passphrase_confirm",
    ]  # fmt: skip

    def __init__(self, *args: Any, parents: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("parent", _choices(parents))

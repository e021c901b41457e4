"""Forms of the sharing pages; the rules live in services and validation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from nasui.forms import StyledForm
from nasui.lib.units import format_size
from sharing.iscsi import runtime
from sharing.iscsi.engine.desired import CHAP_SECRET_RULE
from sharing.iscsi.services.wizard import OPEN_LABEL
from sharing.models import (
    BLOCK_SIZES,
    AuthGroup,
    AuthMethod,
    Extent,
    InitiatorGroup,
    Portal,
    TargetGroup,
)
from storage.validation import (
    COMPRESSION_FORM_CHOICES,
    FORCE_LABEL,
    SPARSE_LABEL,
    VOLBLOCKSIZES,
)

LINES_HELP = "One per line."


def lines(text: str) -> list[str]:
    """Non-empty lines (or comma-separated items) of a text area."""
    return [item.strip() for item in text.replace(",", "\n").splitlines() if item.strip()]


def _secret_field(**kwargs: Any) -> forms.CharField:
    """An optional CHAP secret box: never filled back in, and browsers offer a new password."""
    widget = forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"})
    # strip=False: a secret is stored exactly as typed or refused, never quietly trimmed.
    return forms.CharField(required=False, strip=False, widget=widget, **kwargs)


class SettingsForm(StyledForm):
    """Global iSCSI settings."""

    basename = forms.CharField(label="Base name", help_text="e.g. iqn.2026-11.local.nasui")
    port = forms.IntegerField(min_value=1, max_value=65535, initial=3260)
    discovery_auth_method = forms.ChoiceField(
        choices=AuthMethod.choices,
        label="Discovery authentication",
        help_text="Without it, anyone who reaches the portal can list every target's name.",
    )
    discovery_auth_group = forms.ChoiceField(
        required=False,
        label="Discovery auth group",
        help_text="The CHAP user and secret initiators give to list the targets.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("discovery_auth_group", _choices(AuthGroup.objects.all(), "—"))
        self.show_when("discovery_auth_group", "discovery_auth_method=chap,mutual")


class PortalForm(StyledForm):
    """Listen addresses of a portal."""

    addresses = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="IPv4 or IPv6 addresses, one per line; 0.0.0.0 listens on every IPv4 address.",
    )
    comment = forms.CharField(required=False, max_length=120)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["addresses"].help_text += f" {runtime.portal_hint()}"


class InitiatorGroupForm(StyledForm):
    """Which initiators may connect."""

    initiators = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Initiator IQNs, one per line, e.g. iqn.1991-05.com.microsoft:my-pc.",
    )
    networks = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Networks in CIDR form, one per line. Leave both empty to allow everyone.",
    )
    comment = forms.CharField(required=False, max_length=120)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The running engine's own limits, before the user makes a group it cannot enforce.
        self.fields["networks"].help_text += f" {runtime.initiator_group_hint()}"


class AuthGroupForm(StyledForm):
    """CHAP credentials; secrets are never shown again after saving."""

    tag = forms.IntegerField(min_value=1)
    user = forms.CharField(max_length=64)
    secret = _secret_field(
        help_text=f"{CHAP_SECRET_RULE}. When editing, leave empty to keep the current secret.",
    )
    peer_user = forms.CharField(required=False, max_length=64, label="Peer user (mutual CHAP)")
    peer_secret = _secret_field(
        label="Peer secret (mutual CHAP)",
        help_text=f"{CHAP_SECRET_RULE}; must differ from the secret.",
    )


def _choices(queryset: Any, empty: str | None = None) -> list[tuple[str, str]]:
    items = [(str(obj.pk), str(obj)) for obj in queryset]
    return ([("", empty)] if empty is not None else []) + items


class TargetForm(StyledForm):
    """A target with one portal entry (the API accepts several)."""

    name = forms.CharField(max_length=120, help_text="Lowercase letters, digits, - . : ")
    alias = forms.CharField(required=False, max_length=120)
    portal = forms.ChoiceField()
    initiator_group = forms.ChoiceField(required=False, label="Initiator group")
    auth_method = forms.ChoiceField(choices=TargetGroup.AuthMethod.choices, label="Authentication")
    auth_group = forms.ChoiceField(required=False, label="Auth group")
    field_order = ["name", "alias", "portal", "initiator_group", "auth_method", "auth_group"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("portal", _choices(Portal.objects.prefetch_related("addresses")))
        self.set_choices("initiator_group", _choices(InitiatorGroup.objects.all(), "Everyone"))
        self.set_choices("auth_group", _choices(AuthGroup.objects.all(), "—"))


class ExtentForm(StyledForm):
    """An extent over a zvol or a file."""

    name = forms.CharField(max_length=120)
    kind = forms.ChoiceField(choices=Extent.Kind.choices, label="Type")
    zvol = forms.ChoiceField(required=False)
    path = forms.CharField(required=False, max_length=1024, help_text="A file inside a pool.")
    blocksize = forms.TypedChoiceField(
        choices=BLOCK_SIZES,
        coerce=int,
        initial=512,
        label="Logical block size",
        help_text="512 suits most initiators; 4096 fits zvols with 4K or larger blocks.",
    )
    readonly = forms.BooleanField(required=False, label="Read-only")
    enabled = forms.BooleanField(required=False, initial=True)
    comment = forms.CharField(required=False, max_length=120)

    def __init__(self, *args: Any, zvols: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("zvol", [("", "—")] + [(z, z) for z in zvols])
        # Only the source that matches the chosen type is shown (static/js/nasui.js).
        self.show_when("zvol", f"kind={Extent.Kind.ZVOL}")
        self.show_when("path", f"kind={Extent.Kind.FILE}")


class ExtentEditForm(StyledForm):
    """What can change on an existing extent."""

    readonly = forms.BooleanField(required=False, label="Read-only")
    enabled = forms.BooleanField(required=False)
    comment = forms.CharField(required=False, max_length=120)


class AssociationForm(StyledForm):
    """Map an extent to a target as a LUN."""

    target = forms.ChoiceField()
    extent = forms.ChoiceField()
    lun_id = forms.IntegerField(
        required=False, min_value=0, label="LUN id", help_text="Empty: the lowest free id."
    )

    def __init__(self, *args: Any, targets: Any, extents: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("target", _choices(targets))
        self.set_choices("extent", _choices(extents))


class WizardForm(StyledForm):
    """Everything a home user needs to share a new zvol with one PC, in one form."""

    existing = forms.ChoiceField(
        required=False,
        label="Zvol",
        help_text="Make a new zvol here, or share one you already have.",
    )
    name = forms.CharField(
        required=False,
        max_length=60,
        help_text="Names the target (and a new zvol and its extent), e.g. pc-backup. For an "
        "existing zvol, empty takes its name.",
    )
    parent = forms.ChoiceField(required=False, label="Pool or dataset")
    size = forms.CharField(required=False, help_text="e.g. 100G")
    volblocksize = forms.TypedChoiceField(
        choices=[(str(s), format_size(s)) for s in VOLBLOCKSIZES],
        coerce=int,
        initial="16384",
        label="Block size",
    )
    sparse = forms.BooleanField(required=False, label=SPARSE_LABEL)
    force = forms.BooleanField(required=False, label=FORCE_LABEL)
    compression = forms.ChoiceField(
        choices=[(c, c) for c in COMPRESSION_FORM_CHOICES], initial="inherit"
    )
    initiator = forms.CharField(
        required=False,
        label="Initiator IQN of the PC",
        help_text="Only this initiator may connect. Empty: any initiator that knows the CHAP "
        "secret below.",
    )
    chap_user = forms.CharField(required=False, max_length=64, label="CHAP user")
    chap_secret = _secret_field(
        label="CHAP secret", help_text=f"{CHAP_SECRET_RULE}. Empty: no CHAP."
    )
    open_to_all = forms.BooleanField(
        required=False,
        label=OPEN_LABEL,
        help_text="Only with neither an IQN nor CHAP: every computer on your network can then "
        "read and write this disk.",
    )

    def __init__(
        self, *args: Any, parents: list[str], unshared: Sequence[str] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("parent", [(p, p) for p in parents])
        new = [("", "A new zvol")]
        self.set_choices("existing", new + [(z, z) for z in unshared])
        # The new zvol's own settings show only while "A new zvol" is chosen.
        for field in ("parent", "size", "volblocksize", "sparse", "force", "compression"):
            self.show_when(field, "existing=")

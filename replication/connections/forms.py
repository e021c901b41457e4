"""Forms of the SSH connection pages: add, rename, and the re-pin confirmation."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm
from replication.connections.services import NAME_RULE, USER_RULE


class ConnectionForm(StyledForm):
    """Where the other box is and as whom to log in there."""

    name = forms.CharField(
        max_length=64,
        help_text=f"How the panel names it: {NAME_RULE}.",
        widget=forms.TextInput(attrs={"autofocus": True, "placeholder": "backup-box"}),
    )
    host = forms.CharField(
        max_length=253,
        help_text="IP address or host name of the other box.",
        widget=forms.TextInput(attrs={"placeholder": "192.168.1.20", "autocomplete": "off"}),
    )
    port = forms.IntegerField(min_value=1, max_value=65535, initial=22, label="SSH port")
    user = forms.CharField(
        max_length=32,
        initial="root",
        help_text=f"The user this box logs in as there: {USER_RULE}.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class RenameForm(StyledForm):
    """A connection's new name."""

    name = forms.CharField(
        max_length=64,
        help_text=f"{NAME_RULE}.",
        widget=forms.TextInput(attrs={"autofocus": True}),
    )


class RepinForm(forms.Form):
    """The fingerprints the page showed: only those are pinned (hidden, sent back as shown)."""

    fingerprints = forms.CharField(
        widget=forms.HiddenInput,
        error_messages={"required": "No host key was shown to pin: reload the page."},
    )

    def expected(self) -> list[str]:
        """The fingerprints shown, as a list."""
        shown: str = self.cleaned_data["fingerprints"]
        return shown.split()


class ConfirmForm(forms.Form):
    """A confirmation with nothing to fill in: the button is the answer."""


class PairForm(StyledForm):
    """Another nasui's panel and one of its administrators (the password is used once)."""

    name = forms.CharField(
        max_length=64,
        help_text=f"How the panel names it: {NAME_RULE}.",
        widget=forms.TextInput(attrs={"autofocus": True, "placeholder": "backup-box"}),
    )
    address = forms.CharField(
        max_length=300,
        label="Its panel's address",
        help_text="As you open it in a browser: host name or IP address (https:// is assumed).",
        widget=forms.TextInput(attrs={"placeholder": "192.168.1.20", "autocomplete": "off"}),
    )
    username = forms.CharField(
        max_length=150,
        label="An administrator there",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    password = forms.CharField(
        max_length=4096,
        strip=False,
        help_text="Sent once to that panel to authorize this box's key; kept nowhere.",
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )
    code = forms.CharField(
        max_length=32,
        required=False,
        label="Their two-factor code",
        help_text="If that administrator signs in with a code: the 6 digits their app shows now.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )
    ssh_port = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=65535,
        label="Its SSH port from here (optional)",
        help_text="Blank: the port its panel names (22). Give another if a router forwards one.",
    )

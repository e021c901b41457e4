"""Forms of the encryption page: unlock with the passphrase, lock, a new key or passphrase."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm


def passphrase_box(label: str, *, new: bool = False) -> forms.CharField:
    """A passphrase box that a refused form never fills in again."""
    complete = "new-password" if new else "current-password"
    widget = forms.PasswordInput(render_value=False, attrs={"autocomplete": complete})
    return forms.CharField(required=False, strip=False, label=label, widget=widget)


class UnlockForm(StyledForm):
    """The passphrase that opens a root (none for a root whose key the appliance keeps)."""

    passphrase = passphrase_box("Passphrase")


class LockForm(StyledForm):
    """Lock: nothing to fill in, the page says what stops being served."""


class ChangeKeyForm(StyledForm):
    """A new passphrase, or a new key kept on the appliance; the data is not rewritten."""

    method = forms.ChoiceField(
        choices=[
            ("passphrase", "A new passphrase (typed after each boot)"),
            ("key", "A new key kept on this appliance (unlocks at boot)"),
        ],
        initial="passphrase",
        label="Open it with",
    )
    passphrase = passphrase_box("New passphrase", new=True)
    passphrase_confirm = passphrase_box("New passphrase again", new=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["passphrase"].strength_meter = True  # type: ignore[attr-defined]
        self.fields["passphrase"].widget.attrs["data-strength"] = "1"
        for name in ("passphrase", "passphrase_confirm"):
            self.show_when(name, "method=passphrase")


class ExportForm(StyledForm):
    """The passphrase that seals a key file, typed twice."""

    passphrase = passphrase_box("Passphrase for the key file", new=True)
    passphrase_confirm = passphrase_box("Passphrase again", new=True)


class ImportForm(StyledForm):
    """A key file downloaded from a nasui panel, and the passphrase that sealed it."""

    file = forms.FileField(label="Key file (.nasui-keys)")
    passphrase = passphrase_box("Its passphrase")

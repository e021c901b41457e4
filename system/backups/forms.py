"""The backup page's two forms: a passphrase to seal a backup, an archive and its passphrase."""

from __future__ import annotations

from typing import Any

from django import forms

from nasui.forms import StyledForm

HINT = "At least 8 characters. It is not kept anywhere: without it the archive cannot be opened."


class BackupForm(StyledForm):
    """The passphrase, typed twice: a typo here would lock the archive for good."""

    passphrase = forms.CharField(
        max_length=1024, strip=False, help_text=HINT,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip
    again = forms.CharField(
        label="The passphrase again", max_length=1024, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )  # fmt: skip

    def clean(self) -> dict[str, Any]:
        """Both typings must match."""
        data = super().clean() or {}
        if data.get("passphrase") and data.get("again") and data["passphrase"] != data["again"]:
            self.add_error("again", "The two passphrases differ: type the same one twice.")
        return data


class RestoreForm(StyledForm):
    """A config archive and the passphrase it was made with."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Ids of its own: the backup form beside it has a passphrase field too."""
        kwargs.setdefault("auto_id", "restore-%s")
        super().__init__(*args, **kwargs)

    archive = forms.FileField(
        label="Config archive", help_text="A .nasui file made by Download backup."
    )
    passphrase = forms.CharField(
        max_length=1024, strip=False, help_text="The one typed when the archive was made.",
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )  # fmt: skip

"""The e-mail settings form: the password is write-only (never rendered back) and can be
cleared on purpose; the CA certificate is a file in a certificate folder, or uploaded."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from monitoring.alerting.services.ca import MAX_PEM_BYTES, SYSTEM_CA_DIRS
from monitoring.models import MailSettings, Security


class MailSettingsForm(forms.Form):
    """SMTP server, security, login, sender and recipients."""

    enabled = forms.BooleanField(required=False, label="Send alert e-mails")
    host = forms.CharField(required=False, max_length=255, label="SMTP server",
                           help_text="Host name or address, e.g. smtp.example.com.")  # fmt: skip
    port = forms.IntegerField(min_value=1, max_value=65535, initial=587)
    security = forms.ChoiceField(choices=Security.choices)
    username = forms.CharField(required=False, max_length=255, label="User name",
                               help_text="Leave empty if the server needs no login.")  # fmt: skip
    password = forms.CharField(
        required=False, max_length=255, widget=forms.PasswordInput(render_value=False),
        help_text="Write-only: leave empty to keep the stored password.",
    )  # fmt: skip
    clear_password = forms.BooleanField(
        required=False, label="Clear the stored password",
        help_text="Forget the stored password (leave the password above empty).",
    )  # fmt: skip
    from_address = forms.EmailField(required=False, label="From address")
    to_addresses = forms.CharField(
        required=False, label="To addresses", widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One or more addresses, separated by commas or new lines.",
    )  # fmt: skip
    ca_file = forms.CharField(
        required=False, max_length=500, label="Extra CA certificate file",
        help_text="Path of a PEM file to trust besides the system's CAs, for a server with "
        f"its own certificate authority, in {', '.join(SYSTEM_CA_DIRS)}. The certificate and "
        "host name are always verified.",
    )  # fmt: skip
    ca_pem = forms.FileField(
        required=False, label="Or upload the CA certificate",
        widget=forms.FileInput(attrs={"accept": ".pem,.crt,.cer"}),
        help_text="A PEM file (.pem or .crt) from your computer: the panel keeps its own copy "
        "and uses it as the CA certificate file.",
    )  # fmt: skip
    panel_url = forms.CharField(
        required=False, max_length=300, label="Panel address",
        help_text="The address you open this panel at, e.g. https://nas.example.com: every "
        "mail links to its Alerts page.",
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Tabler classes on every input."""
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if name not in ("enabled", "clear_password"):
                css = "form-select" if name == "security" else "form-control"
                field.widget.attrs.setdefault("class", css)

    @classmethod
    def for_settings(cls, config: MailSettings) -> MailSettingsForm:
        """The form filled from the stored settings (without the password)."""
        names = ("enabled", "host", "port", "security", "username", "from_address", "ca_file",
                 "panel_url")  # fmt: skip
        initial = {name: getattr(config, name) for name in names}
        return cls(initial={**initial, "to_addresses": ", ".join(config.to_addresses)})

    def clean_to_addresses(self) -> list[str]:
        """Split on commas, semicolons and white space."""
        raw = self.cleaned_data.get("to_addresses", "")
        return [part for part in re.split(r"[,;\s]+", raw) if part]

    def clean_ca_pem(self) -> bytes | None:
        """The uploaded file's bytes (the service checks that it is a PEM certificate)."""
        upload = self.cleaned_data.get("ca_pem")
        if not upload:
            return None
        if upload.size > MAX_PEM_BYTES:
            raise forms.ValidationError(
                f"The file is over {MAX_PEM_BYTES // 1024} KiB: a CA certificate is a few KiB."
            )
        return bytes(upload.read())

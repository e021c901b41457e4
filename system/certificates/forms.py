"""The certificate page's upload form: the certificate (its chain after it) and its key."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm


class CertificateForm(StyledForm):
    """Two PEM files, as a certificate authority or an ACME client hands them out."""

    certificate = forms.FileField(
        help_text="PEM, e.g. fullchain.pem: this box's certificate first, then its chain."
    )
    key = forms.FileField(
        label="Private key", help_text="PEM, e.g. privkey.pem, without a passphrase."
    )

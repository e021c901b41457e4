"""The exporter card's form: /metrics on or off."""

from __future__ import annotations

from django import forms


class ExporterForm(forms.Form):
    """On or off."""

    enabled = forms.BooleanField(required=False)

"""Forms of the core app."""

from __future__ import annotations

from django import forms


class ApiTokenForm(forms.Form):
    """Name a new API token."""

    name = forms.CharField(
        max_length=100,
        help_text="What will use it, e.g. 'nightly report script'.",
        widget=forms.TextInput(attrs={"autofocus": True, "placeholder": "nightly report script"}),
    )


class SelfTestForm(forms.Form):
    """How many steps the self-test job counts."""

    steps = forms.IntegerField(min_value=1, max_value=20, initial=5)

"""The code forms: a sign-in's second step, the set-up's first code, turning it off."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm


class CodeForm(StyledForm):
    """Six digits from the authenticator app (or, at sign-in, a recovery code)."""

    code = forms.CharField(
        max_length=32,
        label="Code",
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
    )


class PolicyForm(StyledForm):
    """Whether every panel user must sign in with a code."""

    required_for_everyone = forms.BooleanField(
        required=False,
        label="Everyone signs in with a code",
        help_text="Users without one set it up at their next sign-in, before anything else.",
    )

"""The restore form: where the copy comes back, and up to which snapshot."""

from __future__ import annotations

from django import forms

from nasui.forms import StyledForm


class RestoreForm(StyledForm):
    """A new dataset's name (or the original's, once it is gone) and an optional snapshot."""

    into = forms.CharField(
        label="Restore as",
        max_length=255,
        help_text="A dataset that does not exist yet: a new name beside the original, or the "
        "original's name once it is gone. Nothing that exists is overwritten.",
    )
    snapshot = forms.CharField(
        label="Up to snapshot",
        max_length=200,
        required=False,
        help_text="The short name after @; empty: the newest copy. Every older copy comes too.",
    )

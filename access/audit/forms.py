"""The audit log's filter (GET) and how long it is kept."""

from __future__ import annotations

from typing import Any

from django import forms

from access.audit.models import AuditEntry
from nasui.forms import StyledForm


class AuditFilterForm(StyledForm):
    """Words, a user, a result, a range of days."""

    q = forms.CharField(required=False, label="Search", max_length=200)
    user = forms.ChoiceField(required=False, label="User")
    result = forms.ChoiceField(
        required=False, choices=[("", "Any result"), *AuditEntry.Result.choices]
    )
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, usernames: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_choices("user", [("", "Anyone"), *((name, name) for name in usernames)])


class KeepForm(StyledForm):
    """How long rows are kept."""

    keep_days = forms.IntegerField(
        min_value=1, max_value=3650, label="Keep the log (days)",
        help_text="Older rows are removed every hour.",
    )  # fmt: skip

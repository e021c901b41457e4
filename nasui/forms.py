"""Forms of the core app, and the styled base every page form of the project uses."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


class StyledForm(forms.Form):
    """Adds Tabler's classes to every widget and marks fields with errors."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Give each widget Tabler's input or select class unless it already has one."""
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput | forms.CheckboxSelectMultiple):
                continue
            css = "form-select" if isinstance(widget, forms.Select) else "form-control"
            widget.attrs.setdefault("class", css)

    def set_choices(self, name: str, choices: Iterable[tuple[Any, Any]]) -> None:
        """Give the choice field `name` its options, known only when the form is made."""
        field = self.fields[name]
        if not isinstance(field, forms.ChoiceField):
            raise TypeError(f"{name} is not a choice field")
        field.choices = list(choices)

    def show_when(self, name: str, condition: str) -> None:
        """Show field `name` only while another field has a value: "kind=zvol", "map_mode=root,all".

        The page's script reads it from the field's data-show-when attribute.
        """
        self.fields[name].show_when = condition  # type: ignore[attr-defined]

    def full_clean(self) -> None:
        """Validate, then mark the widgets of fields with errors for Tabler's red outline."""
        super().full_clean()
        for name in self.errors:
            if name in self.fields:
                widget = self.fields[name].widget
                widget.attrs["class"] = widget.attrs.get("class", "") + " is-invalid"


class ApiTokenForm(forms.Form):
    """Name a new API token."""

    name = forms.CharField(
        max_length=100,
        help_text="What will use it, e.g. 'nightly report script'.",
        widget=forms.TextInput(attrs={"autofocus": True, "placeholder": "nightly report script"}),
    )
    read_only = forms.BooleanField(
        required=False,
        label="Read-only",
        help_text="It may read everything your role may, and change nothing.",
    )


class OwnPasswordForm(PasswordChangeForm):
    """Change one's password: a rule the new password breaks is said under that password (not
    under its confirmation), and what was typed right stays typed when something else is wrong."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs["class"] = "form-control"

    def validate_password_for_user(self, user: Any, password_field_name: str = "") -> None:
        """Django's validators, on the new password's own field."""
        super().validate_password_for_user(user, "new_password1")

    def full_clean(self) -> None:
        """Validate, then keep the value of each password field that had no error."""
        super().full_clean()
        for name, field in self.fields.items():
            if isinstance(field.widget, forms.PasswordInput):
                field.widget.render_value = name not in self.errors
            if name in self.errors:
                field.widget.attrs["class"] = "form-control is-invalid"


class SelfTestForm(forms.Form):
    """How many steps the self-test job counts."""

    steps = forms.IntegerField(min_value=1, max_value=20, initial=5)


def form_field(form: forms.Form, key: str) -> str | None:
    """The form field a service's error key means: "name", or "groups.portal" -> "portal"."""
    for candidate in (key, key.rsplit(".", 1)[-1]):
        if candidate in form.fields:
            return candidate
    return None


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Attach each message to its field, or to the form when the field is not on it."""
    for key, messages in exc.message_dict.items():
        target = form_field(form, key)
        for message in messages:
            if target is None and key != NON_FIELD_ERRORS:
                # A field the form does not show: say which, in words, not the internal key.
                message = f"{key.replace('_', ' ').replace('.', ', ')}: {message}"
            form.add_error(target, message)

"""Changing a password: each error under its own field, and what was right stays typed."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db
OLD = "password"  # the admin_user fixture's


def _post(client, old=OLD, new="a passphrase only I know", again=None) -> str:
    body = {"old_password": old, "new_password1": new, "new_password2": again or new}
    return client.post("/settings/password/", body).content.decode()


def _block(page: str, field: str) -> str:
    """The field's input and what follows it, up to the next field or the button."""
    start = page.index(f'name="{field}"')
    return re.split(r'<div class="mb-3">|<button', page[start:], maxsplit=1)[0]


def _errors(page: str, field: str) -> str:
    return " ".join(re.findall(r'<div class="invalid-feedback">([^<]*)<', _block(page, field)))


def _value(page: str, field: str) -> str | None:
    tag = _block(page, field).split(">", 1)[0]
    found = re.search(r'value="([^"]*)"', tag)
    return found.group(1) if found else None


def test_a_rule_the_new_password_breaks_is_said_under_it(admin_client):
    page = _post(admin_client, new="short")
    assert "too short" in _errors(page, "new_password1")
    assert _errors(page, "new_password2") == ""
    assert _value(page, "old_password") == OLD  # the right one stays typed


def test_a_mismatch_is_said_under_the_confirmation_and_keeps_the_first(admin_client):
    page = _post(admin_client, new="a passphrase only I know", again="another passphrase")
    assert "didn\u2019t match" in _errors(page, "new_password2")
    assert _value(page, "new_password1") == "a passphrase only I know"
    assert _value(page, "new_password2") is None


def test_a_wrong_old_password_keeps_the_new_ones(admin_client):
    page = _post(admin_client, old="wrong")
    assert "incorrect" in _errors(page, "old_password")
    assert _value(page, "old_password") is None
    assert _value(page, "new_password1") == "a passphrase only I know"

"""Panel users of each role, signed in through a session or holding a token."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from access.users import services
from access.users.engine import roles
from nasui import services as core

PASSWORD = "a long passphrase for tests"


@pytest.fixture
def user_of(db) -> Callable[[str], object]:
    """A new panel user with a role (named after it)."""

    def make(role: str, name: str = "") -> object:
        return services.user_create(username=name or f"u-{role}", password=PASSWORD, role=role)

    return make


@pytest.fixture
def client_of(user_of) -> Callable[[str], Client]:
    """A browser's client signed in as a new user of `role`."""

    def make(role: str) -> Client:
        client = Client()
        client.force_login(user_of(role))
        return client

    return make


@pytest.fixture
def token_client(user_of) -> Callable[..., Client]:
    """A script's client with a token of a new user of `role` (read-only if asked)."""

    def make(role: str, *, read_only: bool = False, name: str = "") -> Client:
        user = user_of(role, name)
        key = core.api_token_create(user=user, name="t", read_only=read_only)[1]
        return Client(HTTP_AUTHORIZATION=f"Token {key}")

    return make


__all__ = ["roles"]

"""REST API authentication by personal tokens: `Authorization: Token <key>` (or Bearer)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from nasui.models import ApiToken
from nasui.tokens import hash_token_key

KEYWORDS = (b"token", b"bearer")
# Writing last_used_at on every request would turn each API read into a database write.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def active_token(key_hash: str) -> ApiToken | None:
    """The unrevoked token with this hash, its user loaded, in two plain queries.

    Every API request asks this: the ORM's select_related query took ~0.65 ms of CPU to build and
    run, a quarter of a small list request's; these raw ones ~0.3 ms (bench/api_load.py). Only
    table and column names from the models are formatted in; the hash is a parameter.
    """
    user_model = get_user_model()
    tokens, users = ApiToken._meta.db_table, user_model._meta.db_table
    token_sql = f"SELECT * FROM {tokens} WHERE key_hash = %s AND revoked_at IS NULL"  # noqa: S608
    user_sql = f"SELECT * FROM {users} WHERE {user_model._meta.pk.column} = %s"  # noqa: S608
    token = next(iter(ApiToken.objects.raw(token_sql, [key_hash])), None)
    if token is None:
        return None
    user = next(iter(user_model.objects.raw(user_sql, [token.user_id])), None)
    if user is None:
        return None
    token.user = user
    return token


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """Accept an active personal token; a revoked or unknown one is refused."""

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Authorization header must be 'Token <key>'.")
        key = parts[1].decode("latin-1")
        token = active_token(hash_token_key(key))
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        self._touch(token, request.META.get("REMOTE_ADDR"))
        return token.user, token

    def _touch(self, token: ApiToken, address: str | None) -> None:
        now = timezone.now()
        stale = token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION
        if stale or address != token.last_used_from:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now, last_used_from=address)

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Describe token authentication in the OpenAPI schema."""

    target_class = "nasui.auth.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Personal token from Settings: `Token nasui_…`",
        }

"""POST /api/tokens/: a script trades a user name and password for a personal API token.

`administrator_from` checks such credentials for any endpoint that takes them in its body.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from access.audit import services as audit
from access.twofactor import selectors as twofactor
from access.twofactor import services as twofactor_services
from nasui import selectors, services
from nasui.access import (
    ADMINISTRATORS_ONLY,
    CHOOSE_YOURS_FIRST,
    ONLY_ADMINISTRATORS,
    is_administrator,
    is_panel_user,
)
from nasui.api.bodies import validated
from nasui.api.serializers import NewTokenSerializer, TokenRequestSerializer

ASK_FOR_THE_CODE = (
    "This user signs in with a code: give the 6 digits their authenticator app shows now."
)


class TokenCreateView(APIView):
    """Create a token from credentials, under the same lock-out as the login page."""

    # No session and no token yet: the credentials in the body are the authentication, so
    # there is no CSRF to check either.
    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get_authenticate_header(self, request: Request) -> str:
        """Wrong credentials are a 401 (DRF makes them 403 without an authentication class)."""
        return 'Token realm="api"'

    @extend_schema(
        request=TokenRequestSerializer,
        responses={
            201: NewTokenSerializer,
            401: OpenApiResponse(description="Wrong user name or password."),
            429: OpenApiResponse(description="Locked out after repeated failures."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        """Check the credentials, then return a new token once (it is never shown again)."""
        data = validated(TokenRequestSerializer, request.data)
        user = panel_user_from(request, data["username"], data["password"], data["code"])
        if user is None:
            return Response(status=429)  # replaced by the lock-out answer (nasui.lockout)
        token, key = services.api_token_create(
            user=user, name=data["name"], read_only=data["read_only"]
        )
        audit.record(
            user=user, username=user.get_username(), address=request.META.get("REMOTE_ADDR"),
            via="sign-in", method="POST", action="token", target=f"name={token.name}",
            path=request.path, result="done", status=201,
        )  # fmt: skip
        body = {"token": key, "name": token.name, "prefix": token.prefix,
                "read_only": token.read_only}  # fmt: skip
        return Response(NewTokenSerializer(body).data, status=status.HTTP_201_CREATED)


def administrator_from(
    request: Request, username: str, password: str, code: str = ""
) -> User | None:
    """The administrator these credentials name (as `panel_user_from`; any other role is
    refused with a 403)."""
    user = panel_user_from(request, username, password, code)
    if user is not None and not is_administrator(user):
        raise exceptions.PermissionDenied(ONLY_ADMINISTRATORS)
    return user


def panel_user_from(request: Request, username: str, password: str, code: str = "") -> User | None:
    """The panel user these credentials name, under the login page's lock-out (None when
    locked out: answer 429). Wrong ones are a 401; a user who is not a panel user, or must
    choose a password first, a 403. A user with two-factor sign-in also gives `code`: left
    out, a 400 on that field; wrong, a 401 counted towards the lock-out."""
    # The Django request, so that django-axes counts failures and applies its lock-out.
    user = authenticate(request._request, username=username, password=password)
    if getattr(request._request, "axes_locked_out", False):
        return None
    if not isinstance(user, User) or not user.is_active:
        raise exceptions.AuthenticationFailed("Wrong user name or password.")
    if not is_panel_user(user):
        raise exceptions.PermissionDenied(ADMINISTRATORS_ONLY)
    if selectors.password_change_due(user):
        raise exceptions.PermissionDenied(CHOOSE_YOURS_FIRST)
    if twofactor.enrolled(user):
        return _second_step(request, user, code)
    return user


def _second_step(request: Request, user: User, code: str) -> User | None:
    """The code of a user with two-factor sign-in (None when now locked out)."""
    if not code:
        raise exceptions.ValidationError({"code": [ASK_FOR_THE_CODE]})
    try:
        twofactor_services.code_check(user=user, code=code)
    except ValidationError as exc:
        credentials = {"username": user.get_username()}
        user_login_failed.send(__name__, credentials=credentials, request=request._request)
        if not AxesProxyHandler.is_allowed(request._request, credentials):
            return None
        raise exceptions.AuthenticationFailed(" ".join(exc.messages)) from exc
    return user

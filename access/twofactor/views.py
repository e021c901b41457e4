"""Two-factor sign-in pages: the sign-in's second step, and each user's own set-up page."""

from __future__ import annotations

import time
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache

from access.twofactor import selectors, services
from access.twofactor.engine import totp
from access.twofactor.forms import CodeForm, PolicyForm
from nasui.forms import add_service_errors
from nasui.lockout import lockout_response
from nasui.pages import current_user

PENDING = "nasui_second_step"
PENDING_SECONDS = 300  # the password step is good this long for the code step
ISSUER = "nasui"


@method_decorator(never_cache, name="dispatch")
class SignInView(auth_views.LoginView):
    """The password; then, for a user with two-factor sign-in, the code step before login."""

    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.get_user()
        if not selectors.enrolled(user):
            return super().form_valid(form)
        self.request.session[PENDING] = {
            "user": user.pk,
            "backend": user.backend,
            "next": self.get_success_url(),
            "at": time.time(),
        }
        return redirect("login-code")


def _pending(request: HttpRequest) -> tuple[Any, dict[str, Any]] | None:
    """The user whose password was right a moment ago, and where they were going."""
    pending = request.session.get(PENDING)
    if not pending or time.time() - pending["at"] > PENDING_SECONDS:
        return None
    user = get_user_model().objects.filter(pk=pending["user"], is_active=True).first()
    return (user, pending) if user is not None else None


@login_not_required
@never_cache
def code_step(request: HttpRequest) -> HttpResponse:
    """The code from the authenticator app (or a recovery code); wrong codes count towards the
    same lock-out as wrong passwords."""
    found = _pending(request)
    if found is None:
        messages.info(request, "Sign in again: the step before the code took too long.")
        return redirect("login")
    user, pending = found
    credentials = {"username": user.get_username()}
    if not AxesProxyHandler.is_allowed(request, credentials):
        return lockout_response(request, credentials=credentials)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.code_check(user=user, code=form.cleaned_data["code"])
        except ValidationError as exc:
            user_login_failed.send(__name__, credentials=credentials, request=request)
            if not AxesProxyHandler.is_allowed(request, credentials):
                return lockout_response(request, credentials=credentials)
            add_service_errors(form, exc)
        else:
            del request.session[PENDING]
            login(request, user, backend=pending["backend"])
            return redirect(pending["next"])
    status = 400 if form.errors else 200
    return render(request, "registration/login_code.html", {"form": form}, status=status)


@never_cache
def own_page(request: HttpRequest) -> HttpResponse:
    """The user's own two-factor sign-in: set it up, new recovery codes, turn it off."""
    return _render_own(request, CodeForm())


def _render_own(request: HttpRequest, form: CodeForm, status: int = 200) -> HttpResponse:
    """The page, with the QR code and the secret while the set-up waits for its first code."""
    user = current_user(request)
    device = selectors.device_of(user)
    context: dict[str, Any] = {
        "device": device,
        "enrolled": selectors.enrolled(user),
        "required": selectors.required(user),
        "codes_left": selectors.recovery_codes_left(user),
        "form": form,
    }
    if device is not None and device.confirmed_at is None:
        uri = totp.provisioning_uri(device.secret, user.get_username(), ISSUER)
        context.update(qr=totp.qr_svg(uri), secret=device.secret)
    return render(request, "access/two_factor.html", context, status=status)


@never_cache
def own_action(request: HttpRequest, action: str) -> HttpResponse:
    """POST start | confirm | recovery | off; confirm and recovery show the codes once."""
    user = current_user(request)
    if request.method != "POST":
        return redirect("access:two-factor")
    form = CodeForm(request.POST)
    try:
        if action == "start":
            services.setup_start(user=user)
            return redirect("access:two-factor")
        code = request.POST.get("code", "")
        if action == "confirm":
            codes = services.setup_confirm(user=user, code=code)
        elif action == "recovery":
            services.code_check(user=user, code=code)
            codes = services.recovery_codes_new(user=user)
        else:
            services.turn_off(user=user, by=user, code=code)
            messages.success(request, "Two-factor sign-in is off.")
            return redirect("access:two-factor")
    except ValidationError as exc:
        form.is_valid()
        add_service_errors(form, exc)
        return _render_own(request, form, status=400)
    return render(request, "access/recovery_codes.html", {"codes": codes})


def policy_page(request: HttpRequest) -> HttpResponse:
    """An administrator's: whether everyone must sign in with a code."""
    row = selectors.policy()
    initial = {"required_for_everyone": row.required_for_everyone}
    form = PolicyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.policy_update(
            required_for_everyone=form.cleaned_data["required_for_everyone"],
            required_users=list(row.required_users.all()),
        )
        messages.success(request, "Saved.")
        return redirect("access:users")
    return render(request, "access/two_factor_policy.html", {"form": form})


def user_turn_off(request: HttpRequest, pk: int) -> HttpResponse:
    """An administrator turns off someone's two-factor sign-in (a lost phone and lost codes)."""
    user = get_user_model().objects.filter(pk=pk).first()
    if user is None or request.method != "POST":
        return redirect("access:users")
    services.turn_off(user=user, by=current_user(request))
    messages.success(request, f"Two-factor sign-in is off for {user.get_username()}.")
    return redirect("access:users")

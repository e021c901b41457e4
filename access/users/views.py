"""The panel users pages: the list with each one's role, the add and edit forms, removal."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from access.twofactor import selectors as twofactor
from access.twofactor import services as twofactor_services
from access.users import selectors, services
from access.users.engine import roles
from access.users.forms import PanelUserForm
from nasui.pages import current_user, form_page


def user_list(request: HttpRequest) -> HttpResponse:
    """Every panel user, their role and when they last signed in."""
    rows = [(user, roles.LABELS[selectors.role_of(user) or roles.READ_ONLY])
            for user in selectors.panel_users()]  # fmt: skip
    described = [(roles.LABELS[key], roles.DESCRIPTIONS[key]) for key in roles.LABELS]
    policy = twofactor.policy()
    context = {
        "rows": rows,
        "roles": described,
        "enrolled": twofactor.enrolled_users(),
        "everyone_needs_code": policy.required_for_everyone,
    }
    return render(request, "access/users.html", context)


def user_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Add a user, or change one's role, state or password."""
    user = get_object_or_404(selectors.panel_users(), pk=pk) if pk else None
    initial = (
        {
            "username": user.username,
            "role": selectors.role_of(user),
            "is_active": user.is_active,
            "require_code": twofactor.required_alone(user),
        }
        if user
        else {}
    )
    form = PanelUserForm(request.POST or None, initial=initial, editing=user is not None)

    def save(data: dict[str, Any]) -> User:
        if user is None:
            saved = services.user_create(
                username=data["username"], password=data["password"], role=data["role"]
            )
        else:
            saved = services.user_update(
                user=user, role=data["role"], is_active=data["is_active"], by=current_user(request)
            )
            if data["password"]:
                services.user_password_set(user=saved, password=data["password"])
        twofactor_services.required_set(user=saved, required=data["require_code"])
        return saved

    return form_page(
        request,
        form,
        save=save,
        template="access/user_form.html",
        context={"title": f"Edit {user.username}" if user else "Add a panel user"},
        done=lambda saved: f"{saved.username} saved.",
        then="access:users",
    )


def user_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm; POST removes the user (never oneself or the last administrator)."""
    user = get_object_or_404(selectors.panel_users(), pk=pk)
    error = ""
    if request.method == "POST":
        try:
            services.user_delete(user=user, by=current_user(request))
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            messages.success(request, f"{user.username} removed.")
            return redirect("access:users")
    context = {"user_row": user, "error": error}
    return render(request, "access/user_delete.html", context, status=400 if error else 200)

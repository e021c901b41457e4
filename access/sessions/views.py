"""Ending sessions: one's own (from Settings), or, for an administrator, anyone's."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from access.sessions import selectors, services
from nasui.pages import current_user


@require_POST
def own_end(request: HttpRequest, pk: int) -> HttpResponse:
    """End one of one's own sessions (another browser, a lost laptop)."""
    try:
        services.session_end(user=current_user(request), pk=pk)
    except ValidationError:
        messages.error(request, "No such session: it had ended already.")
    else:
        messages.success(request, "That session is ended: its browser must sign in again.")
    return redirect("settings")


def user_sessions(request: HttpRequest, pk: int) -> HttpResponse:
    """An administrator's view of someone's sessions; POST ends them all."""
    user = get_object_or_404(get_user_model(), pk=pk)
    if request.method == "POST":
        keep = request.session.session_key or "" if user.pk == request.user.pk else ""
        ended = services.sessions_end(user=user, keep=keep)
        messages.success(request, f"{ended} session{'s' if ended != 1 else ''} of {user} ended.")
        return redirect("access:user-sessions", pk=user.pk)
    context = {"user_row": user, "sessions": selectors.sessions_of(user)}
    return render(request, "access/user_sessions.html", context)

"""The network page (settings, interfaces, a change waiting for its confirmation) and the
confirmation page opened through the new address."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.forms import add_service_errors
from system.network import selectors, services
from system.network.forms import ConfirmForm, NetworkForm, initial_of


def network_page(request: HttpRequest) -> HttpResponse:
    """GET: the settings in force and the form; POST: make the change."""
    present = selectors.interfaces_present()
    form = NetworkForm(
        request.POST or None, present=present, initial=initial_of(selectors.network_current())
    )
    if request.method == "POST" and form.is_valid():
        try:
            change = services.network_update(form.network())
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            if change.token is None:
                messages.success(request, "The network settings are in force.")
            else:
                messages.warning(
                    request,
                    "The change is being applied. Confirm it from the box's new address within "
                    f"{services.GRACE_SECONDS:.0f} s, or it is undone.",
                )
            return redirect("system:network")
    return render(
        request,
        "system/network.html",
        {"form": form, "present": present, **_pending_context(request)},
        status=400 if form.errors else 200,
    )


def network_confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET: ask to keep the change; POST: keep it (through the new address)."""
    form = ConfirmForm(request.POST or None, initial={"token": token})
    if request.method == "POST" and form.is_valid():
        try:
            services.network_confirm(
                form.cleaned_data["token"], arrived_at=selectors.arrived_at(request.META)
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, "The new network settings are kept.")
            return redirect("system:network")
    context = {
        "form": form,
        "waiting": selectors.pending_change(),
        "network": selectors.network_current(),
    }
    return render(
        request, "system/network_confirm.html", context, status=400 if form.errors else 200
    )


@require_POST
def network_undo(request: HttpRequest) -> HttpResponse:
    """Put the settings before the waiting change back now."""
    if services.network_undo():
        messages.success(request, "The change was undone: the settings before it are back.")
    return redirect("system:network")


def _pending_context(request: HttpRequest) -> dict[str, object]:
    """The waiting change, the link that confirms it (through its first static address, else
    the address in use), and the last change undone."""
    waiting = selectors.pending_change()
    link = ""
    if waiting is not None:
        path = reverse("system:network-confirm", args=[waiting.token])
        static = selectors.static_addresses(selectors.network_current())
        host = _url_host(static[0]) if static else request.get_host()
        link = f"{request.scheme}://{host}{path}"
    return {"waiting": waiting, "confirm_link": link, "last_undone": selectors.last_undone()}


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address

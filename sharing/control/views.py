"""The Services page: iSCSI, SMB and NFS with their state, start at boot, Start and Stop."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from sharing.control import selectors, services

# What stopping each service does to its clients, for the confirmation before Stop or Restart.
LOSSES = {
    "smb": ("Open files on every client are closed.", "Open files on every client are closed."),
    "nfs": (
        "Clients' mounts hang until it starts again.",
        "Clients' mounts pause for a moment.",
    ),
}


def _confirmations(service: dict[str, Any]) -> dict[str, str]:
    """The question asked before Stop and Restart (iSCSI: how many initiators are connected)."""
    label = service["label"]
    if service["name"] == "iscsi":
        count = len(service["sessions"])
        who = "1 connected initiator loses" if count == 1 else f"{count} connected initiators lose"
        stop, restart = (
            f"{who} their disks until it starts again.",
            f"{who} their disks for a moment.",
        )
    else:
        stop, restart = LOSSES[service["name"]]
    return {
        "stop": f"Stop the {label} service? {stop}",
        "restart": f"Restart the {label} service? {restart}",
    }


def services_page(request: HttpRequest) -> HttpResponse:
    """One row per service: engine, port, state, start at boot and the controls."""
    rows = selectors.service_list()
    for service in rows:
        service["confirm"] = _confirmations(service)
    return render(request, "services/index.html", {"services": rows})


@require_POST
def service_action(request: HttpRequest, name: str, action: str) -> HttpResponse:
    """Start, stop or restart one service now; the outcome shows on the page."""
    try:
        done = services.service_act(name=name, action=action)
    except selectors.UnknownService as exc:
        raise Http404(str(exc)) from exc
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        state = "running" if done["running"] else "stopped"
        messages.success(request, f"{done['label']} service: {action} done, now {state}.")
    return redirect("services:index")


@require_POST
def service_boot(request: HttpRequest, name: str) -> HttpResponse:
    """Turn start at boot on (enable=1) or off (enable=0)."""
    value = request.POST.get("enable", "")
    if value not in ("0", "1"):
        messages.error(request, "Start at boot: send enable=1 (on) or enable=0 (off).")
        return redirect("services:index")
    try:
        done = services.service_enable_set(name=name, enable=value == "1")
    except selectors.UnknownService as exc:
        raise Http404(str(exc)) from exc
    state = "starts" if done["enable"] else "stays stopped"
    messages.success(request, f"{done['label']} service: {state} at boot.")
    return redirect("services:index")

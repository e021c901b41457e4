"""SSH connection pages: list, add, pair with another nasui, the connection (its key, host
keys, check), rename, re-pin, delete."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from nasui.pages import form_page, posted
from replication.connections import selectors, services
from replication.connections.forms import (
    ConfirmForm,
    ConnectionForm,
    PairForm,
    RenameForm,
    RepinForm,
)
from replication.models import SshConnection

FORM = "replication/connection_form.html"
CONFIRM = "replication/confirm.html"


def _page(connection: SshConnection) -> str:
    """The connection's own page."""
    return reverse("replication:connection", kwargs={"pk": connection.pk})


def connection_list(request: HttpRequest) -> HttpResponse:
    """Every connection with its address and the result of its last check."""
    rows = selectors.connection_queryset()
    return render(request, "replication/connections.html", {"connections": rows})


def connection_create(request: HttpRequest) -> HttpResponse:
    """Add a connection: a key pair is made and the other side's host key pinned."""
    form = ConnectionForm(request.POST or None)
    return form_page(
        request,
        form,
        save=lambda data: services.connection_create(**data),
        template=FORM,
        context={
            "title": "Add an SSH connection",
            "submit": "Add connection",
            "cancel": reverse("replication:connections"),
        },
        done=lambda c: f"Connection {c.name} added: authorize its key on {c.host}, then check it.",
        then=_page,
    )


def connection_pair(request: HttpRequest) -> HttpResponse:
    """Pair with another nasui: its administrator's password authorizes this box's key there."""
    form = PairForm(request.POST or None)
    return form_page(
        request,
        form,
        save=lambda data: services.connection_pair(**data),
        template=FORM,
        context={
            "title": "Pair with another nasui",
            "submit": "Pair",
            "cancel": reverse("replication:connections"),
            "pairing": True,
        },
        done=lambda c: f"Paired with {c.host}: connection {c.name} is ready for replication tasks.",
        then=_page,
    )


def connection_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The public key to authorize there, the pinned host keys, and the buttons."""
    connection = selectors.connection_get(pk)
    context = {
        "connection": connection,
        "authorize_command": selectors.authorize_command(connection),
        "fingerprints": selectors.fingerprints(connection),
    }
    return render(request, "replication/connection.html", context)


def connection_rename(request: HttpRequest, pk: int) -> HttpResponse:
    """Give a connection another name."""
    connection = selectors.connection_get(pk)
    form = RenameForm(request.POST or None, initial={"name": connection.name})
    return form_page(
        request,
        form,
        save=lambda data: services.connection_update(connection=connection, name=data["name"]),
        template=FORM,
        context={
            "title": f"Rename {connection.name}",
            "submit": "Rename",
            "cancel": _page(connection),
        },
        done=lambda c: f"Connection renamed to {c.name}.",
        then=_page,
    )


@require_POST
def connection_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Run `true` on the other side and say how it went."""
    connection = selectors.connection_get(pk)
    try:
        services.connection_check(connection=connection)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{connection.name} works: {connection.user}@"
                         f"{connection.host} ran a command for this box.")  # fmt: skip
    return redirect(_page(connection))


def connection_repin(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the host key offered now beside the pinned one; pin it only if confirmed."""
    connection = selectors.connection_get(pk)
    offered = selectors.offered_keys(connection)
    form = RepinForm(posted(request), initial={"fingerprints": " ".join(offered.fingerprints)})
    context = {
        "title": f"Pin the new host key of {connection.name}",
        "connection": connection,
        "pinned": selectors.fingerprints(connection),
        "offered": offered,
        "submit": "Pin the new host key",
        "repin": True,
    }
    return form_page(
        request,
        form,
        save=lambda _: services.connection_repin(connection=connection, expected=form.expected()),
        template=CONFIRM,
        context=context,
        done=lambda c: f"New host key of {c.host} pinned. Check the connection to be sure.",
        then=_page,
    )


def connection_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then delete the connection and this box's key for it."""
    connection = selectors.connection_get(pk)
    context = {
        "title": f"Delete the connection {connection.name}",
        "connection": connection,
        "submit": "Delete connection",
        "danger": True,
    }
    return form_page(
        request,
        ConfirmForm(posted(request)),
        save=lambda _: services.connection_delete(connection=connection),
        template=CONFIRM,
        context=context,
        done=f"Connection {connection.name} deleted.",
        then="replication:connections",
    )

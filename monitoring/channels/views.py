"""Channel pages: the list with test and retry buttons, the form, the delete confirmation."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from monitoring.channels import selectors
from monitoring.channels.forms import ChannelForm
from monitoring.channels.services import channels as services
from monitoring.channels.services import delivery
from monitoring.models import Channel
from nasui.pages import form_page

FORM = "alerts/channel_form.html"


def channel_list(request: HttpRequest) -> HttpResponse:
    """Every channel: where it sends, what it gets, what waits and what failed."""
    rows = [
        (
            row,
            selectors.target_of(row),
            list(selectors.failed_notices(row)[: selectors.FAILED_SHOWN]),
        )
        for row in selectors.channels()
    ]
    return render(request, "alerts/channels.html", {"rows": rows})


def channel_create(request: HttpRequest) -> HttpResponse:
    """Add a channel."""
    form = ChannelForm(request.POST or None)
    context = {"title": "Add a notification channel", "submit": "Add channel"}
    return form_page(
        request,
        form,
        save=lambda data: services.channel_create(**data),
        template=FORM,
        context=context,
        then="alerts:channels",
        done=lambda c: f"Channel {c.name} added: send a test message to check it.",
    )


def channel_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Change a channel; empty secret fields keep the stored ones."""
    channel = get_object_or_404(Channel, pk=pk)
    form = ChannelForm.for_channel(channel, request.POST or None)
    context = {"title": f"Channel {channel.name}", "submit": "Save", "channel": channel}
    return form_page(
        request,
        form,
        save=lambda data: services.channel_update(channel, **data),
        template=FORM,
        context=context,
        then="alerts:channels",
        done=lambda c: f"Channel {c.name} saved.",
    )


def channel_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then remove the channel and what waits in it."""
    channel = get_object_or_404(Channel, pk=pk)
    if request.method == "POST":
        services.channel_delete(channel)
        messages.success(request, f"Channel {channel.name} removed.")
        return redirect("alerts:channels")
    return render(request, "alerts/channel_delete.html", {"channel": channel})


@require_POST
def channel_test(request: HttpRequest, pk: int) -> HttpResponse:
    """Send a test message with the saved settings and say how it went."""
    channel = get_object_or_404(Channel, pk=pk)
    try:
        messages.success(request, services.send_test(channel))
    except ValidationError as exc:
        messages.error(request, f"{channel.name}: " + " ".join(exc.messages))
    return redirect("alerts:channels")


@require_POST
def channel_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """Put the channel's failed notices back in line."""
    channel = get_object_or_404(Channel, pk=pk)
    count = delivery.notices_retry(channel)
    messages.success(request, f"{count} notice(s) of {channel.name} will be sent again shortly.")
    return redirect("alerts:channels")

"""Alert pages: the alert list with dismiss buttons, and the e-mail settings (thin views)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from monitoring.alerting import selectors
from monitoring.alerting.forms import MailSettingsForm
from monitoring.alerting.services import lifecycle
from monitoring.alerting.services import mail as mail_settings
from monitoring.models import AlertRecord
from nasui.forms import add_service_errors
from nasui.htmx import is_partial, template_for


def _list_context() -> dict[str, object]:
    """The three sections of the alert page."""
    return {
        "active": list(selectors.active()),
        "dismissed": list(selectors.dismissed()),
        "history": list(selectors.history()[: selectors.HISTORY_LENGTH]),
    }


def index(request: HttpRequest) -> HttpResponse:
    """Open alerts (worst first), dismissed ones, and the history; htmx polls the list."""
    lifecycle.refresh_worker_alert()
    return render(request, template_for(request, "alerts/index.html", "list"), _list_context())


def badge(request: HttpRequest) -> HttpResponse:
    """The navigation's count of open alerts, fetched when the event stream says one changed."""
    return render(request, "alerts/_badge.html", {"count": selectors.active().count()})


@require_POST
def dismiss(request: HttpRequest, pk: int) -> HttpResponse:
    """Hide an open alert until it clears; htmx swaps the list, a plain form redirects."""
    alert = get_object_or_404(AlertRecord, pk=pk)
    try:
        lifecycle.alert_dismiss(alert=alert, user=request.user)  # type: ignore[arg-type]
    except ValidationError as exc:
        messages.warning(request, " ".join(exc.messages))
    if is_partial(request):
        return render(request, "alerts/index.html#list", _list_context())
    return redirect("alerts:index")


def _render_mail(request: HttpRequest, form: MailSettingsForm, status: int = 200) -> HttpResponse:
    """The settings page with its form and the delivery status."""
    # the address this page was opened at is the likeliest answer to "Panel address"
    form.fields["panel_url"].widget.attrs["placeholder"] = request.build_absolute_uri("/")[:-1]
    context = {"form": form, "config": mail_settings.mail_settings_get()}
    return render(request, "alerts/mail.html", context, status=status)


def mail_page(request: HttpRequest) -> HttpResponse:
    """Show or save the SMTP settings."""
    if request.method != "POST":
        return _render_mail(
            request, MailSettingsForm.for_settings(mail_settings.mail_settings_get())
        )
    form = MailSettingsForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_mail(request, form, status=400)
    try:
        saved = mail_settings.mail_settings_update(**form.cleaned_data)
    except ValidationError as exc:
        add_service_errors(form, exc)
        return _render_mail(request, form, status=400)
    messages.success(request, "E-mail settings saved.")
    for warning in mail_settings.mail_settings_warnings(saved):
        messages.warning(request, warning)
    return redirect("alerts:mail")


@require_POST
def mail_test(request: HttpRequest) -> HttpResponse:
    """Send a test mail with the saved settings and say how it went."""
    try:
        messages.success(request, mail_settings.send_test_mail())
    except ValidationError as exc:
        messages.error(request, "Test mail not sent: " + " ".join(exc.messages))
    return redirect("alerts:mail")

"""The certificate page: what is served, an upload form, and a new self-signed certificate."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from nasui.pages import form_page
from system.certificates import selectors, services
from system.certificates.engine.certs import CertInfo
from system.certificates.forms import CertificateForm

TEMPLATE = "system/certificate.html"


def certificate_page(request: HttpRequest) -> HttpResponse:
    """GET: the certificate in service and the form; POST: serve the uploaded pair."""
    form = CertificateForm(request.POST or None, request.FILES or None)
    return form_page(
        request,
        form,
        save=lambda data: services.certificate_upload(
            certificate=data["certificate"].read(), key=data["key"].read()
        ),
        template=TEMPLATE,
        context=_context(),
        done=lambda info: f"The panel is now served with the certificate for {_names(info)}.",
        then="system:certificate",
    )


@require_POST
def certificate_self_signed(request: HttpRequest) -> HttpResponse:
    """Make a new self-signed certificate and serve it."""
    try:
        info = services.certificate_self_signed()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"A new self-signed certificate for {_names(info)} is served.")
    return redirect("system:certificate")


def _context() -> dict[str, object]:
    return {
        "current": selectors.certificate_current(),
        "served_by": selectors.served_by(),
        "names": [*selectors.box_names(), *selectors.box_addresses()],
    }


def _names(info: CertInfo) -> str:
    return ", ".join(info.names) or info.subject

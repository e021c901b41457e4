"""The backup page: download this box's config archive; the restore page: upload one, see what
it holds, confirm.

The download answers the archive itself. A restore is two steps: the archive and its
passphrase are checked and what they hold is shown (written beside the data, not applied);
*Restore this configuration* marks it for the panel's next start.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from nasui.forms import add_service_errors
from system.backups import services
from system.backups.forms import BackupForm, RestoreForm

PAGE = "system/backup.html"
RESTORE_PAGE = "system/restore.html"


def backup_page(request: HttpRequest) -> HttpResponse:
    """The download form, and whether a restore waits for the next start."""
    return _page(request, BackupForm())


def restore_page(request: HttpRequest) -> HttpResponse:
    """The upload form, and whether a restore waits for the next start."""
    return _restore_page(request, RestoreForm())


@require_POST
def backup_download(request: HttpRequest) -> HttpResponse:
    """The archive as a file to save, or the page with the form's errors."""
    form = BackupForm(request.POST)
    if form.is_valid():
        try:
            made = services.backup_make(passphrase=form.cleaned_data["passphrase"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            response = HttpResponse(made.data, content_type="application/octet-stream")
            response["Content-Disposition"] = f'attachment; filename="{made.name}"'
            return response
    return _page(request, form, status=400)


@require_POST
def restore_prepare(request: HttpRequest) -> HttpResponse:
    """Open the uploaded archive and show what it holds, with the button that confirms it."""
    form = RestoreForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            summary = services.restore_prepare(
                data=services.archive_bytes(form.cleaned_data["archive"]),
                passphrase=form.cleaned_data["passphrase"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            return render(request, "system/restore_confirm.html", {"summary": summary})
    return _restore_page(request, form, status=400)


@require_POST
def restore_confirm(request: HttpRequest) -> HttpResponse:
    """Mark the prepared archive for the next start."""
    try:
        services.restore_confirm()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "The restore is ready: it is applied when the panel starts "
                         "again (reboot the appliance). Then log in with the admin password "
                         "the backup holds.")  # fmt: skip
    return redirect("system:restore")


@require_POST
def restore_cancel(request: HttpRequest) -> HttpResponse:
    """Forget the prepared or confirmed restore."""
    services.restore_cancel()
    messages.success(request, "The restore was cancelled: nothing changed.")
    return redirect("system:restore")


def _page(request: HttpRequest, backup: BackupForm, status: int = 200) -> HttpResponse:
    context = {"backup": backup, "staged": services.restore_staged()}
    return render(request, PAGE, context, status=status)


def _restore_page(request: HttpRequest, restore: RestoreForm, status: int = 200) -> HttpResponse:
    context = {"restore": restore, "staged": services.restore_staged()}
    return render(request, RESTORE_PAGE, context, status=status)

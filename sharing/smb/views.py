"""SMB pages: the service's Start and Stop, shares, and the server's settings."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from sharing.accounts.views import groups_by_pk
from sharing.models import LocalUser, SmbSettings, SmbShare
from sharing.pages import FILES, form_page
from sharing.runtime import ApplyError, runtime
from sharing.smb import forms, services
from storage.datasets import selectors as dataset_selectors
from storage.datasets import selectors as storage
from storage.validation import format_size, parse_size


@require_POST
def smb_service_control(request: HttpRequest, action: str) -> HttpResponse:
    """Start, stop or restart the SMB service."""
    try:
        runtime("smb").control(action)
    except ApplyError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"SMB service: {action} done.")
    return redirect(FILES)


def _share_initial(share: SmbShare) -> dict[str, Any]:
    limit = share.time_machine_limit
    fields = ("name", "comment", "read_only", "browseable", "guest_ok", "shadow_copy")
    return {
        **{name: getattr(share, name) for name in fields},
        **{name: getattr(share, name) for name in ("fruit", "time_machine", "audit", "enabled")},
        "path": dataset_selectors.dataset_path(share.dataset),
        "users": [str(u.pk) for u in share.users.all()],
        "groups": [str(g.pk) for g in share.groups.all()],
        "time_machine_limit": format_size(limit) if limit else "",
    }


def share_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit an SMB share of a dataset."""
    share = get_object_or_404(SmbShare, pk=pk) if pk else None
    form = forms.SmbShareForm(
        request.POST or None,
        initial=_share_initial(share) if share else {},
        mountpoints=storage.mounted_filesystems(),
    )

    def save(data: dict[str, Any]) -> object:
        limit = data.pop("time_machine_limit").strip()
        data["time_machine_limit"] = parse_size(limit, "time_machine_limit") if limit else None
        users = list(LocalUser.objects.filter(pk__in=[int(pk) for pk in data.pop("users")]))
        groups = groups_by_pk(data.pop("groups"))
        if share is None:
            return services.smb_share_create(users=users, groups=groups, **data)
        return services.smb_share_update(share=share, users=users, groups=groups, **data)

    title = f"Edit SMB share {share}" if share else "Add SMB share"
    return form_page(request, form, save=save, title=title, done="SMB share saved.", back=FILES)


def smb_settings_page(request: HttpRequest) -> HttpResponse:
    """The SMB server's names and listen addresses."""
    row = SmbSettings.load()
    initial = {
        "netbios_name": row.netbios_name,
        "workgroup": row.workgroup,
        "description": row.description,
        "bind": "\n".join(row.bind),
    }
    form = forms.SmbSettingsForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        data["bind"] = [line.strip() for line in data["bind"].splitlines() if line.strip()]
        return services.smb_settings_update(**data)

    return form_page(
        request, form, save=save, title="SMB settings", done="SMB settings saved.", back=FILES
    )

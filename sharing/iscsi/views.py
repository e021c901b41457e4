"""Sharing pages: overview, wizard, and create/edit/delete of each iSCSI object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from sharing.iscsi import forms, runtime, selectors, services
from sharing.iscsi.services import wizard
from sharing.models import AuthGroup, Extent, InitiatorGroup, IscsiSettings, Portal, Target
from sharing.pages import delete_page, form_page
from sharing.runtime import ApplyError
from storage.datasets import selectors as storage


def index(request: HttpRequest) -> HttpResponse:
    """Service state, sessions and every iSCSI object."""
    context = {
        "service": runtime.IscsiRuntime().status(),
        "settings": IscsiSettings.load(),
        "targets": selectors.target_list(),
        "extents": selectors.extent_list(),
        "portals": selectors.portal_list(),
        "initiator_groups": selectors.initiator_group_list(),
        "auth_groups": selectors.auth_group_list(),
    }
    return render(request, "sharing/index.html", context)


@require_POST
def service_control(request: HttpRequest, action: str) -> HttpResponse:
    """Start, stop or restart the target service."""
    try:
        runtime.IscsiRuntime().control(action)
    except ApplyError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"iSCSI service: {action} done.")
    return redirect("sharing:index")


def wizard_page(request: HttpRequest) -> HttpResponse:
    """Share a new zvol with one PC in one form."""
    form = forms.WizardForm(
        request.POST or None,
        parents=storage.filesystem_names(),
        unshared=selectors.unshared_zvols(),
    )
    return form_page(
        request,
        form,
        save=lambda data: wizard.share(**data),
        title="Share a zvol",
        done="The zvol is shared: its target is ready for your PC's iSCSI initiator.",
        intro="Makes a zvol (or takes one you have), an extent, a target and its LUN at once.",
    )


def settings_page(request: HttpRequest) -> HttpResponse:
    """Base name, port and discovery authentication."""
    row = IscsiSettings.load()
    initial = {
        "basename": row.basename,
        "port": row.port,
        "discovery_auth_method": row.discovery_auth_method,
        "discovery_auth_group": row.discovery_auth_group_id or "",
    }
    form = forms.SettingsForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        group = _maybe(AuthGroup, data.pop("discovery_auth_group"))
        return services.settings_update(**data, discovery_auth_group=group)

    return form_page(request, form, save=save, title="iSCSI settings", done="iSCSI settings saved.")


def portal_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a portal."""
    portal = get_object_or_404(Portal, pk=pk) if pk else None
    initial = {}
    if portal is not None:
        initial = {
            "addresses": "\n".join(a.address for a in portal.addresses.all()),
            "comment": portal.comment,
        }
    form = forms.PortalForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        addresses = forms.lines(data["addresses"])
        if portal is None:
            return services.portal_create(addresses=addresses, comment=data["comment"])
        return services.portal_update(portal=portal, addresses=addresses, comment=data["comment"])

    title = "Edit portal" if portal else "Add portal"
    return form_page(request, form, save=save, title=title, done="Portal saved.")


def initiator_group_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit an initiator group."""
    group = get_object_or_404(InitiatorGroup, pk=pk) if pk else None
    initial = {}
    if group is not None:
        initial = {
            "initiators": "\n".join(group.initiators),
            "networks": "\n".join(group.networks),
            "comment": group.comment,
        }
    form = forms.InitiatorGroupForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        lists = {
            "initiators": forms.lines(data["initiators"]),
            "networks": forms.lines(data["networks"]),
        }
        if group is None:
            return services.initiator_group_create(**lists, comment=data["comment"])
        return services.initiator_group_update(group=group, **lists, comment=data["comment"])

    title = "Edit initiator group" if group else "Add initiator group"
    return form_page(request, form, save=save, title=title, done="Initiator group saved.")


def auth_group_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit CHAP credentials (secrets are never shown back)."""
    group = get_object_or_404(AuthGroup, pk=pk) if pk else None
    initial = {"tag": group.tag, "user": group.user, "peer_user": group.peer_user} if group else {}
    form = forms.AuthGroupForm(request.POST or None, initial=initial)
    if group is not None:
        form.fields["tag"].disabled = True

    def save(data: dict[str, Any]) -> object:
        creds = {k: data[k] for k in ("user", "secret", "peer_user", "peer_secret")}
        if group is None:
            return services.auth_group_create(tag=data["tag"], **creds)
        return services.auth_group_update(group=group, **creds)

    title = "Edit auth group" if group else "Add auth group"
    return form_page(request, form, save=save, title=title, done="Auth group saved.")


def _maybe(model: type[Model], pk: str) -> Any:
    """The row with this id, or None for an empty choice."""
    return model._default_manager.filter(pk=int(pk)).first() if pk else None


def _group_entry(data: dict[str, Any]) -> dict[str, Any]:
    """The form's single portal entry as the service expects it."""
    return {
        "portal": _maybe(Portal, data["portal"]),
        "initiator_group": _maybe(InitiatorGroup, data["initiator_group"]),
        "auth_method": data["auth_method"],
        "auth_group": _maybe(AuthGroup, data["auth_group"]),
    }


def target_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a target."""
    target = get_object_or_404(Target, pk=pk) if pk else None
    initial: dict[str, Any] = {}
    if target is not None:
        first = target.groups.first()
        initial = {"name": target.name, "alias": target.alias}
        if first is not None:
            initial |= {
                "portal": first.portal_id,
                "initiator_group": first.initiator_group_id or "",
                "auth_method": first.auth_method,
                "auth_group": first.auth_group_id or "",
            }
    form = forms.TargetForm(request.POST or None, initial=initial)

    def save(data: dict[str, Any]) -> object:
        groups = [_group_entry(data)]
        if target is None:
            return services.target_create(name=data["name"], alias=data["alias"], groups=groups)
        return services.target_update(
            target=target, name=data["name"], alias=data["alias"], groups=groups
        )

    title = "Edit target" if target else "Add target"
    return form_page(request, form, save=save, title=title, done="Target saved.")


def extent_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create an extent, or edit an existing one's flags."""
    extent = get_object_or_404(Extent, pk=pk) if pk else None
    if extent is not None:
        form: Any = forms.ExtentEditForm(
            request.POST or None,
            initial={
                "readonly": extent.readonly,
                "enabled": extent.enabled,
                "comment": extent.comment,
            },
        )
        return form_page(
            request, form, save=lambda d: services.extent_update(extent=extent, **d),
            title=f"Edit extent {extent.name}", done="Extent saved.",
        )  # fmt: skip
    zvols = [d.name for d in storage.dataset_list(volumes=True)]
    form = forms.ExtentForm(request.POST or None, zvols=zvols)
    return form_page(
        request, form, save=lambda d: services.extent_create(**d), title="Add extent",
        done="Extent saved.",
    )  # fmt: skip


def association_form(request: HttpRequest) -> HttpResponse:
    """Map an extent to a target as a LUN."""
    form = forms.AssociationForm(
        request.POST or None, targets=Target.objects.all(), extents=selectors.unmapped_extents()
    )

    def save(data: dict[str, Any]) -> object:
        return services.association_create(
            target=get_object_or_404(Target, pk=data["target"]),
            extent=get_object_or_404(Extent, pk=data["extent"]),
            lun_id=data["lun_id"],
        )

    return form_page(request, form, save=save, title="Add LUN", done="LUN added.")


DELETERS: dict[str, tuple[type[Model], Callable[..., None], str]] = {
    "portal": (Portal, services.portal_delete, "portal"),
    "initiator-group": (InitiatorGroup, services.initiator_group_delete, "group"),
    "auth-group": (AuthGroup, services.auth_group_delete, "group"),
    "target": (Target, services.target_delete, "target"),
    "extent": (Extent, services.extent_delete, "extent"),
}


def delete(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    """Confirm, then delete one iSCSI object through its service."""
    if kind not in DELETERS:
        raise Http404(f"Nothing called {kind} can be deleted here.")
    model, service, argument = DELETERS[kind]
    obj = get_object_or_404(model, pk=pk)
    warnings = {
        "target": "Initiators connected to it lose their disks.",
        "extent": "Its LUN disappears from the target; the zvol and its data stay.",
    }
    return delete_page(
        request,
        what=f"{kind.replace('-', ' ').capitalize()} “{obj}”",
        delete=lambda: service(**{argument: obj}),
        warning=warnings.get(kind, ""),
    )


def association_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then remove a LUN from its target."""
    mapping = get_object_or_404(selectors.association_list(), pk=pk)
    return delete_page(
        request,
        what=f"LUN {mapping.lun_id} of {mapping.target}",
        delete=lambda: services.association_delete(association=mapping),
        warning="Initiators using this LUN lose the disk; the extent and its data stay.",
    )

"""Local account pages: users and groups of the file shares (not logins to this panel)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from sharing.accounts import forms, services
from sharing.models import LocalGroup, LocalUser
from sharing.pages import FILES, form_page
from storage.datasets import selectors as storage


def groups_by_pk(pks: list[str]) -> list[LocalGroup]:
    return list(LocalGroup.objects.filter(pk__in=[int(pk) for pk in pks]))


def group_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a local group."""
    group = get_object_or_404(LocalGroup, pk=pk) if pk else None
    initial = {"name": group.name, "comment": group.comment} if group else {}
    form = forms.LocalGroupForm(request.POST or None, initial=initial, editing=group is not None)

    def save(data: dict[str, Any]) -> object:
        if group is None:
            return services.group_create(**data)
        return services.group_update(group=group, **data)

    title = f"Edit group {group}" if group else "Add group"
    return form_page(request, form, save=save, title=title, done="Group saved.", back=FILES)


def _user_initial(user: LocalUser) -> dict[str, Any]:
    return {
        "full_name": user.full_name,
        "email": user.email,
        "group": str(user.group_id),
        "groups": [str(g.pk) for g in user.groups.all()],
        "home_dataset": user.home_dataset,
        "disabled": user.disabled,
    }


def user_form(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """Create or edit a local user (the password is never shown back)."""
    user = get_object_or_404(LocalUser, pk=pk) if pk else None
    form = forms.LocalUserForm(
        request.POST or None,
        initial=_user_initial(user) if user else {},
        filesystems=storage.filesystem_names(),
        user=user,
    )

    def save(data: dict[str, Any]) -> object:
        data.pop("password_again")
        group = LocalGroup.objects.filter(pk=int(data.pop("group") or 0)).first()
        groups = groups_by_pk(data.pop("groups"))
        if user is None:
            return services.user_create(group=group, groups=groups, **data)
        return services.user_update(user=user, group=group or user.group, groups=groups, **data)

    title = f"Edit user {user}" if user else "Add user"
    intro = "A user of the file shares (SMB), not a login to this panel."
    return form_page(
        request, form, save=save, title=title, done="User saved.", intro=intro, back=FILES
    )

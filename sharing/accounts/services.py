"""Writes to local users and groups: checked, saved, applied to the file servers, or neither."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Max
from django.utils import timezone

from nasui.validation import fail, refusal
from sharing.accounts.engine.base import SYSTEM_NAMES
from sharing.accounts.engine.desired import (
    ID_MAX,
    ID_MIN,
    NAME_RULE,
    AccountError,
    invisible_character,
)
from sharing.accounts.engine.desired import check_name as check_account_name
from sharing.apply import FILE_SERVICES, files_saved_and_applied, serialized
from sharing.models import LocalGroup, LocalUser
from sharing.runtime import nt_hash as make_nt_hash
from storage.datasets.selectors import filesystem_names

# New ids start clear of the accounts an installer or distribution makes (1000, 1001...).
FIRST_AUTO_ID = 3000
PASSWORD_MIN, PASSWORD_MAX = 8, 128


def _next_id(model: type[LocalUser] | type[LocalGroup], field: str) -> int:
    """The id after the highest one used, from FIRST_AUTO_ID."""
    highest = model.objects.aggregate(top=Max(field))["top"] or FIRST_AUTO_ID - 1
    return max(highest + 1, FIRST_AUTO_ID)


def _check_id(value: int | None, field: str, taken: Iterable[int]) -> None:
    if value is None:
        return
    if not ID_MIN <= value <= ID_MAX:
        raise fail(field, f"Use a number from {ID_MIN} to {ID_MAX}.")
    if value in set(taken):
        raise fail(field, f"{value} is taken by another account.")


@serialized(*FILE_SERVICES)
def group_create(*, name: str, gid: int | None = None, comment: str = "") -> LocalGroup:
    """A new local group; the gid is the next free one unless given."""
    name = validate_account_name(name, "name")
    if LocalGroup.objects.filter(name=name).exists():
        raise fail("name", f"There is already a group named {name}.")
    _check_id(gid, "gid", LocalGroup.objects.values_list("gid", flat=True))
    number = gid if gid is not None else _next_id(LocalGroup, "gid")
    comment = _visible(comment.strip(), "comment", "The comment")
    return files_saved_and_applied(
        lambda: LocalGroup.objects.create(name=name, gid=number, comment=comment)
    )


@serialized(*FILE_SERVICES)
def group_update(*, group: LocalGroup, name: str, comment: str = "") -> LocalGroup:
    """Rename a group or change its comment (its gid stays: files on disk carry it)."""
    name = validate_account_name(name, "name", current=group.name)
    if LocalGroup.objects.filter(name=name).exclude(pk=group.pk).exists():
        raise fail("name", f"There is already a group named {name}.")
    comment = _visible(comment.strip(), "comment", "The comment")

    def change() -> LocalGroup:
        group.name, group.comment = name, comment
        group.save()
        return group

    return files_saved_and_applied(change)


def group_delete(*, group: LocalGroup) -> None:
    """Delete a group that is nobody's primary group and no share names."""
    primary = list(group.primary_users.values_list("username", flat=True))
    if primary:
        raise refusal(f"It is the primary group of {', '.join(primary)}: change them first.")
    shares = list(group.smb_shares.values_list("name", flat=True))
    if shares:
        raise refusal(f"SMB share {', '.join(shares)} admits this group: change it first.")
    _refuse_if_mapped(group.nfs_maps.values_list("dataset", flat=True))
    files_saved_and_applied(group.delete)


def _refuse_if_mapped(datasets: Iterable[str]) -> None:
    """An NFS export maps clients to this account: deleting it would break that export."""
    names = list(datasets)
    if names:
        raise refusal(f"The NFS export of {', '.join(names)} maps to it: change it first.")


def _check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise fail("password", f"Use {PASSWORD_MIN} to {PASSWORD_MAX} characters.")
    if not password.isprintable():
        raise fail("password", "Use printable characters only.")
    return password


def _user_fields(data: dict[str, Any]) -> dict[str, Any]:
    """Checked plain fields of a user (name, full name, e-mail, home dataset)."""
    full_name = _visible(data.get("full_name", "").strip(), "full_name", "The full name")
    if ":" in full_name or not full_name.isprintable():
        raise fail("full_name", "Use printable characters, without ':'.")
    home = data.get("home_dataset", "").strip()
    if home:
        validate_home_dataset(home)
    return {
        "full_name": full_name,
        "email": data.get("email", "").strip(),
        "home_dataset": home,
        "disabled": bool(data.get("disabled", False)),
    }


@serialized(*FILE_SERVICES)
def user_create(
    *,
    username: str,
    password: str,
    uid: int | None = None,
    group: LocalGroup | None = None,
    groups: Iterable[LocalGroup] = (),
    **fields: Any,
) -> LocalUser:
    """A new user; without a primary group one of the same name is made (as useradd does)."""
    username = validate_account_name(username, "username")
    if LocalUser.objects.filter(username=username).exists():
        raise fail("username", f"There is already a user named {username}.")
    _check_id(uid, "uid", LocalUser.objects.values_list("uid", flat=True))
    if group is None and LocalGroup.objects.filter(name=username).exists():
        raise fail("group", f"A group named {username} exists: pick it or another group.")
    plain = _user_fields(fields)
    nt_hash = make_nt_hash(username, _check_password(password))

    def change() -> LocalUser:
        primary = group or LocalGroup.objects.create(name=username, gid=_next_id(LocalGroup, "gid"))
        user = LocalUser.objects.create(
            username=username,
            uid=uid if uid is not None else _next_id(LocalUser, "uid"),
            group=primary,
            nt_hash=nt_hash,
            password_set_at=timezone.now(),
            **plain,
        )
        user.groups.set(groups)
        return user

    return files_saved_and_applied(change)


@serialized(*FILE_SERVICES)
def user_update(
    *,
    user: LocalUser,
    group: LocalGroup,
    groups: Iterable[LocalGroup] = (),
    password: str = "",
    **fields: Any,
) -> LocalUser:
    """Change a user; an empty password keeps the current one (passwords are write-only)."""
    plain = _user_fields(fields)
    nt_hash = make_nt_hash(user.username, _check_password(password)) if password else ""

    def change() -> LocalUser:
        for name, value in plain.items():
            setattr(user, name, value)
        user.group = group
        if nt_hash:
            user.nt_hash, user.password_set_at = nt_hash, timezone.now()
        user.save()
        user.groups.set(groups)
        return user

    return files_saved_and_applied(change)


def _own_group_left(user: LocalUser) -> LocalGroup | None:
    """The group named after the user, if nothing else needs it once the user is gone."""
    group = user.group
    if group.name != user.username:
        return None
    others = group.primary_users.exclude(pk=user.pk).exists() or group.members.exists()
    return None if others or group.smb_shares.exists() else group


def user_delete(*, user: LocalUser) -> None:
    """Delete a user no share names, and its own group as userdel does; files keep its uid."""
    shares = list(user.smb_shares.values_list("name", flat=True))
    if shares:
        raise refusal(f"SMB share {', '.join(shares)} admits this user: change it first.")
    _refuse_if_mapped(user.nfs_maps.values_list("dataset", flat=True))
    own = _own_group_left(user)

    def change() -> None:
        user.delete()
        if own is not None:
            own.delete()

    files_saved_and_applied(change)


def _visible(text: str, field: str, what: str) -> str:
    """Text that reaches the servers' files (passwd, smb.conf) without invisible characters."""
    hidden = invisible_character(text)
    if hidden:
        raise fail(field, f"{what} may not contain the invisible character {hidden}.")
    return text


def validate_account_name(name: str, field: str, *, current: str = "") -> str:
    """A local user or group name under the portable POSIX rule, not one the system keeps
    (an account made before that rule keeps its `current` name)."""
    name = name.strip()
    try:
        check_account_name(name, "name")
    except AccountError as exc:
        raise fail(field, f"Use {NAME_RULE}.") from exc
    if name in SYSTEM_NAMES and name != current:
        raise fail(field, f"{name} is reserved for the system: choose another name.")
    return name


def validate_home_dataset(name: str) -> str:
    """A home must be an existing file system of a panel pool."""
    if name not in filesystem_names():
        raise fail("home_dataset", f"There is no file system named “{name}”.")
    return name

"""The "Share a dataset" wizard: a new or existing dataset, its SMB share and who may use it.

Everything at once or nothing: what the wizard made is undone if a later step fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from sharing import validation as v
from sharing.models import LocalUser, SmbShare
from sharing.services import accounts, smb
from storage import permissions
from storage import selectors as storage
from storage import services as storage_services

# One user: the folder is theirs. Several users or guests: open to all, SMB's user list admits.
OWNER_MODE, SHARED_MODE = 0o770, 0o777


@dataclass(frozen=True)
class WizardShare:
    """What the wizard made or used."""

    dataset: str
    share: SmbShare
    new_user: LocalUser | None


def _dataset(existing: str, parent: str, name: str, compression: str) -> tuple[str, bool]:
    """The dataset to share, made if asked; (its name, whether the wizard made it)."""
    if existing:
        if existing not in storage.filesystem_names():
            raise v.fail("existing", f"There is no file system named “{existing}”.")
        return existing, False
    if not parent:
        raise v.fail("parent", "Pick the pool or dataset for the new dataset, or an existing one.")
    if not name.strip():
        raise v.fail("name", "Name the new dataset, e.g. family.")
    made = storage_services.dataset_create(
        parent=parent, name=name.strip(), compression=compression
    )
    return made.name, True


def _who(users: Sequence[LocalUser], username: str, password: str, guest_ok: bool) -> None:
    """The wizard asks the user to say who may use the share: nobody by accident."""
    if not users and not username.strip() and not guest_ok:
        raise v.fail("users", "Pick who may use the share: users, a new user, or guests.")


def _permissions(dataset: str, users: Sequence[LocalUser], guest_ok: bool) -> None:
    """Give the folder to its one user, or open it when several users or guests share it."""
    if len(users) == 1 and not guest_ok:
        owner = users[0]
        uid, gid, mode = owner.uid, owner.group.gid, OWNER_MODE
    else:
        uid, gid, mode = 0, 0, SHARED_MODE
    permissions.dataset_permissions_set(name=dataset, uid=uid, gid=gid, mode=mode)


def share_dataset(
    *,
    existing: str = "",
    parent: str = "",
    name: str = "",
    compression: str = "inherit",
    share_name: str = "",
    users: Sequence[LocalUser] = (),
    new_username: str = "",
    new_password: str = "",
    guest_ok: bool = False,
    read_only: bool = False,
) -> WizardShare:
    """Share a dataset over SMB with the chosen users (one may be made here), or nothing."""
    _who(users, new_username, new_password, guest_ok)
    undo: list[Callable[[], None]] = []
    try:
        dataset, made = _dataset(existing, parent, name, compression)
        if made:
            undo.append(lambda: storage_services.dataset_destroy(name=dataset, confirm=dataset))
        new_user = None
        if new_username.strip():
            new_user = accounts.user_create(username=new_username, password=new_password)
            undo.append(lambda: accounts.user_delete(user=new_user))
        admitted = [*users, *([new_user] if new_user else [])]
        share = smb.smb_share_create(
            name=share_name.strip() or dataset.rsplit("/", 1)[-1],
            path=storage.dataset_get(dataset).mountpoint or "",
            users=admitted,
            guest_ok=guest_ok,
            read_only=read_only,
        )
        undo.append(lambda: smb.smb_share_delete(share=share))
        _permissions(dataset, admitted, guest_ok)
    except ValidationError:
        for step in reversed(undo):
            step()
        raise
    return WizardShare(dataset=dataset, share=share, new_user=new_user)

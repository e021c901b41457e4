"""Writes of file sharing above the protocols: the "Share a dataset" wizard, a folder's owner.

The wizard makes a new or existing dataset, shared over SMB, NFS or both, everything at once or
nothing: what it made is undone if a later step fails. A folder is given to a local user and
group (storage knows uids and gids only).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError

from nasui.models import Job
from nasui.validation import fail
from sharing.accounts import services as account_services
from sharing.apply import FILE_SERVICES, serialized
from sharing.models import LocalGroup, LocalUser, NfsShare, SmbShare
from sharing.nfs import services as nfs_services
from sharing.runtime import runtime
from sharing.smb import selectors as smb_selectors
from sharing.smb import services as smb_services
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services
from storage.ownership import services as permissions

log = logging.getLogger(__name__)
Undo = list[Callable[[], None]]

PROTOCOLS = ("smb", "nfs")
# One user (or NFS's map-all user): the folder is theirs. Several users, guests or NFS clients
# writing as themselves: open to all, and the share's own list (users, networks) admits.
OWNER_MODE, SHARED_MODE = 0o770, 0o777
# The services' field names that mean another field of the wizard.
USER_FIELDS = {"username": "new_username", "password": "new_password", "group": "new_username"}
SHARE_FIELDS = {"name": "share_name", "path": "existing"}
EXPORT_FIELDS = {"path": "existing"}


@dataclass(frozen=True)
class WizardShare:
    """What the wizard made or used: the dataset, its SMB share and NFS export, a new user."""

    dataset: str
    path: str
    share: SmbShare | None
    export: NfsShare | None
    new_user: LocalUser | None


@dataclass(frozen=True)
class SmbRequest:
    """The SMB share asked for: its name (empty: the dataset's) and who may log in."""

    share_name: str = ""
    users: Sequence[LocalUser] = ()
    guest_ok: bool = False


@dataclass(frozen=True)
class NfsRequest:
    """Which machines may mount the export, and who root (or everyone) becomes on the server."""

    networks: Sequence[str] = ()
    hosts: Sequence[str] = ()
    map_mode: str = NfsShare.MapMode.NONE
    map_user: LocalUser | None = None
    map_group: LocalGroup | None = None


@contextmanager
def _named(renames: dict[str, str]) -> Iterator[None]:
    """A service's errors under the wizard's field names (the share's `name` is `share_name`)."""
    try:
        yield
    except ValidationError as exc:
        if not hasattr(exc, "error_dict"):
            raise
        raise ValidationError({renames.get(k, k): e for k, e in exc.error_dict.items()}) from exc


def _protocols(protocols: Sequence[str]) -> set[str]:
    """The protocols asked for: at least one, each known."""
    chosen = set(protocols)
    if not chosen:
        raise fail("protocols", "Pick SMB, NFS or both.")
    unknown = sorted(chosen - set(PROTOCOLS))
    if unknown:
        raise fail("protocols", f"Use smb or nfs, not {', '.join(unknown)}.")
    return chosen


def _dataset(existing: str, parent: str, name: str, compression: str) -> tuple[str, bool]:
    """The dataset to share, made if asked; (its name, whether the wizard made it)."""
    if existing:
        if existing not in storage.filesystem_names():
            raise fail("existing", f"There is no file system named “{existing}”.")
        return existing, False
    if not parent:
        raise fail("parent", "Pick the pool or dataset for the new dataset, or an existing one.")
    if not name.strip():
        raise fail("name", "Name the new dataset, e.g. family.")
    made = storage_services.dataset_create(
        parent=parent, name=name.strip(), compression=compression
    )
    return made.name, True


def _who(users: Sequence[LocalUser], username: str, guest_ok: bool) -> None:
    """The wizard asks the user to say who may use the SMB share: nobody by accident."""
    if not users and not username.strip() and not guest_ok:
        raise fail("users", "Pick who may use the share: users, a new user, or guests.")


def _new_user(undo: Undo, username: str, password: str) -> LocalUser | None:
    """The user made on the spot, if one is named."""
    if not username.strip():
        return None
    with _named(USER_FIELDS):
        user = account_services.user_create(username=username, password=password)
    undo.append(lambda: account_services.user_delete(user=user))
    return user


def _share(undo: Undo, dataset: str, path: str, request: SmbRequest, read_only: bool) -> SmbShare:
    """The SMB share of the dataset's mountpoint, checked by the SMB service."""
    with _named(SHARE_FIELDS):
        share = smb_services.smb_share_create(
            name=request.share_name.strip() or dataset.rsplit("/", 1)[-1],
            path=path,
            users=list(request.users),
            guest_ok=request.guest_ok,
            read_only=read_only,
        )
    undo.append(lambda: smb_services.smb_share_delete(share=share))
    return share


def _used(username: str, smb_request: SmbRequest | None, nfs_request: NfsRequest | None) -> None:
    """A user made here must be of use: an SMB login, or the user NFS maps root or all to."""
    if not username.strip() or smb_request is not None or nfs_request is None:
        return
    if nfs_request.map_mode == NfsShare.MapMode.NONE or nfs_request.map_user is not None:
        raise fail(
            "new_username",
            "This user would use nothing: tick SMB, or map NFS's root or everyone to them.",
        )


def _mapped(request: NfsRequest, new_user: LocalUser | None) -> NfsRequest:
    """Root (or everyone) becomes the user made here when no other user is picked."""
    if request.map_mode == NfsShare.MapMode.NONE or request.map_user is not None:
        return request
    return replace(request, map_user=new_user)


def _export(undo: Undo, path: str, request: NfsRequest, read_only: bool) -> NfsShare:
    """The NFS export of the dataset's mountpoint, checked by the NFS service."""
    with _named(EXPORT_FIELDS):
        export = nfs_services.nfs_share_create(
            path=path,
            networks=list(request.networks),
            hosts=list(request.hosts),
            read_only=read_only,
            map_mode=request.map_mode,
            map_user=request.map_user,
            map_group=request.map_group,
        )
    undo.append(lambda: nfs_services.nfs_share_delete(share=export))
    return export


def _folder(
    admitted: Sequence[LocalUser], guest_ok: bool, export: NfsShare | None
) -> tuple[int, int, int]:
    """(uid, gid, mode) of the shared folder: whose it is, and whether others may write."""
    if export is not None and export.map_mode == NfsShare.MapMode.ALL and export.map_user:
        # Every NFS client writes as this user, so the folder is theirs; opened only when SMB
        # also lets other users or guests in.
        owner, group = export.map_user, export.map_group or export.map_user.group
        others = guest_ok or any(user.pk != owner.pk for user in admitted)
        return owner.uid, group.gid, SHARED_MODE if others else OWNER_MODE
    if len(admitted) == 1 and not guest_ok:
        uid, gid, mode = admitted[0].uid, admitted[0].group.gid, OWNER_MODE
    else:
        uid, gid, mode = 0, 0, SHARED_MODE
    if export is not None and not export.read_only:
        # NFS clients write as their own uids, which this machine cannot know and which they
        # may claim at will (AUTH_SYS): the network and host list is the real lock, and a
        # 0770 folder would only answer "permission denied" to the PC the user just named.
        mode = SHARED_MODE
    return uid, gid, mode


def _undone(undo: Undo) -> None:
    """Take back what was made, newest first; one step that fails does not stop the others."""
    for step in reversed(undo):
        try:
            step()
        except Exception:
            log.exception("The share wizard could not undo a step")


def _steps(
    undo: Undo,
    dataset: tuple[str, str, str, str],
    user: tuple[str, str],
    smb_request: SmbRequest | None,
    nfs_request: NfsRequest | None,
    read_only: bool,
) -> WizardShare:
    """Make each part in turn, noting in `undo` how to take it back."""
    name, made = _dataset(*dataset)
    if made:
        undo.append(lambda: storage_services.dataset_destroy(name=name, confirm=name))
    path = storage.dataset_get(name).mountpoint or ""
    new_user = _new_user(undo, *user)
    share = export = None
    if smb_request is not None:
        smb_request = replace(smb_request, users=[*smb_request.users, *filter(None, [new_user])])
        share = _share(undo, name, path, smb_request, read_only)
    if nfs_request is not None:
        export = _export(undo, path, _mapped(nfs_request, new_user), read_only)
    admitted = smb_request.users if smb_request else ()
    uid, gid, mode = _folder(admitted, bool(smb_request and smb_request.guest_ok), export)
    permissions.dataset_permissions_set(name=name, uid=uid, gid=gid, mode=mode)
    return WizardShare(dataset=name, path=path, share=share, export=export, new_user=new_user)


@serialized(*FILE_SERVICES)
def share_dataset(
    *,
    existing: str = "",
    parent: str = "",
    name: str = "",
    compression: str = "inherit",
    protocols: Sequence[str] = ("smb",),
    share_name: str = "",
    users: Sequence[LocalUser] = (),
    new_username: str = "",
    new_password: str = "",
    guest_ok: bool = False,
    read_only: bool = False,
    networks: Sequence[str] = (),
    hosts: Sequence[str] = (),
    map_mode: str = NfsShare.MapMode.NONE,
    map_user: LocalUser | None = None,
    map_group: LocalGroup | None = None,
) -> WizardShare:
    """Share a dataset over SMB, NFS or both with the chosen users (one may be made), or nothing."""
    chosen = _protocols(protocols)
    smb_request = nfs_request = None
    if "smb" in chosen:
        _who(users, new_username, guest_ok)
        smb_request = SmbRequest(share_name, users, guest_ok)
    if "nfs" in chosen:
        nfs_request = NfsRequest(networks, hosts, map_mode, map_user, map_group)
    _used(new_username, smb_request, nfs_request)
    undo: Undo = []
    try:
        return _steps(
            undo,
            (existing, parent, name, compression),
            (new_username, new_password),
            smb_request,
            nfs_request,
            read_only,
        )
    except Exception:
        _undone(undo)
        raise


def summary(made: WizardShare) -> str:
    """What the wizard made, in words: the share, the export and who may use them."""
    parts = []
    if made.share is not None:
        names = [user.username for user in made.share.users.all()]
        who = ", ".join([*names, *(["guests"] if made.share.guest_ok else [])])
        where = smb_selectors.connect_address(made.share.name)
        parts.append(f"as “{made.share.name}” over SMB for {who} (connect to {where})")
    if made.export is not None:
        clients = ", ".join([*made.export.networks, *made.export.hosts])
        mapped = made.export.map_user
        as_user = f" (everyone as {mapped})" if made.export.map_mode == "all" and mapped else ""
        parts.append(
            f"over NFS at {made.path} to {clients}{as_user}"
            f" (mount <this NAS's address>:{made.path})"
        )
    said = f"{made.dataset} is shared " + " and ".join(parts) + "."
    nfs = runtime("nfs").status()
    if made.export is not None and not nfs.served:
        said += f" {nfs.message}"
    return said


def dataset_owner_set(
    *,
    dataset: str,
    owner: LocalUser | None,
    group: LocalGroup | None,
    mode: str,
    recursive: bool = False,
    user: User | AnonymousUser | None = None,
) -> Job | None:
    """Give the dataset's folder to a local user and group (None: root) with this mode."""
    return permissions.dataset_permissions_set(
        name=dataset,
        uid=owner.uid if owner else 0,
        gid=group.gid if group else 0,
        mode=permissions.parse_mode(mode),
        recursive=recursive,
        user=user,
    )

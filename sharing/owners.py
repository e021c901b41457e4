"""Sharing's side of storage's owner registry: the local users and groups a folder may get."""

from __future__ import annotations

from storage.registry import Accounts, register_account_lister


def local_accounts() -> Accounts:
    """The panel's local users and groups by name (disabled users still own their files)."""
    from sharing.models import LocalGroup, LocalUser  # models load only once apps are ready

    return Accounts(
        users=dict(LocalUser.objects.values_list("username", "uid")),
        groups=dict(LocalGroup.objects.values_list("name", "gid")),
    )


def register() -> None:
    """Tell storage where the accounts that may own a dataset's folder come from."""
    register_account_lister("sharing.accounts", local_accounts)

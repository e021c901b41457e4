"""Writes to the sharing configuration: validate, save, apply to the running target, or undo.

One module per kind of object; every write goes through `apply.saved_and_applied`.
"""

from sharing.iscsi.services.auth import auth_group_create, auth_group_delete, auth_group_update
from sharing.iscsi.services.common import saved_and_applied
from sharing.iscsi.services.extents import (
    association_create,
    association_delete,
    extent_create,
    extent_delete,
    extent_update,
)
from sharing.iscsi.services.portals import (
    initiator_group_create,
    initiator_group_delete,
    initiator_group_update,
    portal_create,
    portal_delete,
    portal_update,
    settings_update,
)
from sharing.iscsi.services.targets import target_create, target_delete, target_update

__all__ = [
    "association_create",
    "association_delete",
    "auth_group_create",
    "auth_group_delete",
    "auth_group_update",
    "extent_create",
    "extent_delete",
    "extent_update",
    "initiator_group_create",
    "initiator_group_delete",
    "initiator_group_update",
    "portal_create",
    "portal_delete",
    "portal_update",
    "saved_and_applied",
    "settings_update",
    "target_create",
    "target_delete",
    "target_update",
]

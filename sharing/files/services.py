"""Who owns a shared dataset's folder: local users and groups turned into storage's numbers."""

from __future__ import annotations

import re

from django.contrib.auth.models import AnonymousUser, User

from nasui.models import Job
from nasui.validation import fail
from sharing.models import LocalGroup, LocalUser
from storage.ownership import services as permissions

_OCTAL = re.compile(r"^0?[0-7]{3,4}$")


def parse_mode(text: str) -> int:
    """'0770', '770' or '2775' -> the mode; anything else names the field and the rule."""
    if not _OCTAL.match(text.strip()):
        raise fail("mode", "Give the mode as 3 or 4 octal digits, e.g. 770 or 2775.")
    return int(text.strip(), 8)


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
        mode=parse_mode(mode),
        recursive=recursive,
        user=user,
    )

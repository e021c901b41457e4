"""ZFS name rules in one place: both engines enforce them, the panel's validation explains them."""

from __future__ import annotations

import re

from storage.zfs.errors import InvalidProperty

# The character sets OpenZFS accepts, minus spaces (names end up in paths and target configs).
# A leading letter keeps a pool name from ever being read as a command-line option.
POOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]*")
COMPONENT = re.compile(r"[A-Za-z0-9_.:-]+")
# zpool reads these words as vdev types, so a pool cannot start with them.
RESERVED_POOL_PREFIXES = ("mirror", "raidz", "draid", "spare", "log", "cache", "special", "dedup")
DISK_LIKE = re.compile(r"c[0-9]")  # c0, c1t0d0...: Solaris disk names, reserved by ZFS
MAX_NAME_LENGTH = 255  # ZFS's limit for a full dataset name

CHARSET = "use only letters, digits, underscore, hyphen, colon and period"
# The advisor's settings benchmark makes short-lived datasets and zvols named so: the panel's lists
# leave them out and users cannot take the prefix.
SCRATCH_PREFIX = "nasui-scratch-"


def pool_name_problem(name: str) -> str | None:
    """Why `name` cannot be a pool name, or None when it can."""
    if len(name) > MAX_NAME_LENGTH:
        return f"At most {MAX_NAME_LENGTH} characters."
    if not POOL_NAME.fullmatch(name):
        return f"Start with a letter; {CHARSET}."
    if name.lower().startswith(RESERVED_POOL_PREFIXES):
        return f"“{name}” is reserved by ZFS for vdev types; pick another name."
    if DISK_LIKE.match(name):
        return "Names like c0, c1… are reserved by ZFS for disk names."
    return None


def component_problem(component: str) -> str | None:
    """Why `component` cannot be one part of a dataset name, or None when it can."""
    if component in (".", ".."):
        return "“.” and “..” are not valid names."
    if not COMPONENT.fullmatch(component):
        return f"“{component}”: {CHARSET}."
    return None


def dataset_name_problem(name: str) -> str | None:
    """Why `name` (pool/child/...) cannot name a dataset, or None when it can.

    The pool part is checked for its characters only: a pool imported from another system may
    carry a name the panel would not give a new pool, and its datasets must stay reachable.
    """
    if len(name) > MAX_NAME_LENGTH:
        return f"At most {MAX_NAME_LENGTH} characters in the full name."
    pool, *components = name.split("/")
    if not POOL_NAME.fullmatch(pool):
        return f"Start with a letter; {CHARSET}."
    for component in components:
        problem = component_problem(component)
        if problem:
            return problem
    return None


def check_pool_name(name: str) -> None:
    """Raise InvalidProperty unless `name` is a valid pool name."""
    problem = pool_name_problem(name)
    if problem:
        raise InvalidProperty(f"invalid pool name {name!r}: {problem}")


def check_dataset_name(name: str) -> None:
    """Raise InvalidProperty unless `name` is a valid dataset name (pool/child/...)."""
    problem = dataset_name_problem(name)
    if problem:
        raise InvalidProperty(f"invalid dataset name {name!r}: {problem}")


def is_scratch(name: str) -> bool:
    """True for a benchmark's scratch dataset or zvol, or anything inside one."""
    return any(part.startswith(SCRATCH_PREFIX) for part in name.split("/")[1:])

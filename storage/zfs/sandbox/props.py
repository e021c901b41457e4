"""Property rules: validation with messages naming the rule, defaults, and inheritance."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from nasui.lib.units import format_size
from storage.zfs.base import COMPRESSION_CHOICES, DEDUP_CHOICES
from storage.zfs.errors import InvalidProperty
from storage.zfs.sandbox.names import is_power_of_two, parse_size

FILESYSTEM = "filesystem"
VOLUME = "volume"
KIB = 1024
# Defaults of a dataset with nothing set. volblocksize follows the panel (TrueNAS) default of
# 16K; OpenZFS 2.1 itself defaults to 8K and 2.2+ to 16K.
DEFAULTS = {
    "compression": "off",
    "dedup": "off",
    "recordsize": str(128 * KIB),
    "volblocksize": str(16 * KIB),
    "atime": "on",
    # OpenZFS on Linux: no ACLs unless asked (FreeBSD defaults to nfsv4); xattrs in hidden
    # directories ("on" is how zfs get prints dir).
    "acltype": "off",
    "xattr": "on",
    "readonly": "off",
    "sync": "standard",
    "quota": "0",
    "refquota": "0",
    "reservation": "0",
    "refreservation": "0",
}
INHERITABLE = frozenset(
    {"compression", "dedup", "recordsize", "atime", "acltype", "xattr", "readonly", "sync"}
)
NOT_INHERITABLE = frozenset({"quota", "refquota", "reservation", "refreservation", "volsize"})
CREATE_ONLY = frozenset({"volblocksize"})
FILESYSTEM_ONLY = frozenset({"recordsize", "atime", "acltype", "xattr", "quota", "mountpoint"})
VOLUME_ONLY = frozenset({"volsize", "volblocksize"})
# Figures the engine computes: `zfs set` refuses them as read-only.
STATISTICS = (
    "type",
    "creation",
    "used",
    "available",
    "referenced",
    "compressratio",
    "refcompressratio",
    "logicalused",
    "logicalreferenced",
    "usedbysnapshots",
    "usedbydataset",
    "usedbychildren",
    "usedbyrefreservation",
    "mounted",
    "mountpoint",
)
_ON_OFF = ("on", "off")
_SYNC = ("standard", "always", "disabled")
# zfs get prints an index property by the first name of its value: the old aliases read back
# as the new names. nfsv4 is left out: Linux has no NFSv4 ACLs.
_ACLTYPES = {"off": "off", "posix": "posix", "noacl": "off", "disabled": "off", "posixacl": "posix"}
_XATTRS = {"on": "on", "off": "off", "sa": "sa", "dir": "on"}
_COMPRESSION_RULE = "one of off, on, lz4, gzip, gzip-1..gzip-9, zstd, zstd-1..zstd-19, zle, lzjb"
USER_VALUE_MAX = 8191
Checker = Callable[[str, str], str]


def is_user_property(prop: str) -> bool:
    """User properties (module:name, e.g. nasui:comment) hold any short string."""
    return ":" in prop


def applies(prop: str, kind: str) -> bool:
    """False when a property does not exist for this dataset type (atime on a zvol...)."""
    if kind == VOLUME:
        return prop not in FILESYSTEM_ONLY
    return prop not in VOLUME_ONLY


def normalize(prop: str, value: str, kind: str) -> str:
    """The stored form of `prop=value` for a dataset of `kind`; InvalidProperty if refused."""
    if is_user_property(prop):
        return _user_value(prop, value)
    if prop in STATISTICS:
        raise InvalidProperty(f"property {prop!r} is read-only")
    if prop not in DEFAULTS and prop != "volsize":
        raise InvalidProperty(f"invalid property {prop!r} (not supported by the sandbox engine)")
    if not applies(prop, kind):
        raise InvalidProperty(f"property {prop!r} does not apply to datasets of type {kind}")
    checker = _CHECKERS.get(prop, _size_or_none)
    return checker(prop, str(value).strip())


def _user_value(prop: str, value: str) -> str:
    if len(value) > USER_VALUE_MAX:
        raise InvalidProperty(f"property {prop!r} is longer than {USER_VALUE_MAX} characters")
    if "\0" in value or "\n" in value:
        raise InvalidProperty(f"property {prop!r} must be a single line of text")
    return value


def _compression(prop: str, value: str) -> str:
    lowered = value.lower()
    if lowered not in COMPRESSION_CHOICES and lowered != "on":
        raise InvalidProperty(f"invalid value {value!r} for {prop}: must be {_COMPRESSION_RULE}")
    # gzip-6 is the same on-disk value as gzip, and zfs get shows it by its first name.
    return "gzip" if lowered == "gzip-6" else lowered


def _block_size(low: int, high: int) -> Checker:
    def check(prop: str, value: str) -> str:
        size = parse_size(value, prop)
        if not is_power_of_two(size) or not low <= size <= high:
            raise InvalidProperty(
                f"{prop} must be a power of 2 from {format_size(low)} to {format_size(high)}, "
                f"got {value}"
            )
        return str(size)

    return check


def _choice(choices: tuple[str, ...]) -> Checker:
    def check(prop: str, value: str) -> str:
        lowered = value.lower()
        if lowered not in choices:
            raise InvalidProperty(
                f"invalid value {value!r} for {prop}: must be one of {', '.join(choices)}"
            )
        return lowered

    return check


def _aliased(names: Mapping[str, str], shown: str) -> Checker:
    def check(prop: str, value: str) -> str:
        lowered = value.lower()
        if lowered not in names:
            raise InvalidProperty(f"invalid value {value!r} for {prop}: must be one of {shown}")
        return names[lowered]

    return check


def _size_or_none(prop: str, value: str) -> str:
    """quota, reservation and the like: a size, or none/0 for no limit."""
    if value.lower() == "none":
        return "0"
    size = parse_size(value, prop)
    if size < 0:
        raise InvalidProperty(f"{prop} must be a size or none, got {value!r}")
    return str(size)


def _volsize(prop: str, value: str) -> str:
    size = parse_size(value, prop)
    if size <= 0:
        raise InvalidProperty(f"volsize must be positive, got {value!r}")
    return str(size)


_CHECKERS: dict[str, Checker] = {
    "compression": _compression,
    "dedup": _choice(DEDUP_CHOICES),
    "recordsize": _block_size(512, 1024 * KIB),
    "volblocksize": _block_size(512, 128 * KIB),
    "atime": _choice(_ON_OFF),
    "acltype": _aliased(_ACLTYPES, "off, posix"),
    "xattr": _aliased(_XATTRS, "on, off, dir, sa"),
    "readonly": _choice(_ON_OFF),
    "sync": _choice(_SYNC),
    "volsize": _volsize,
}


def resolve(
    prop: str, chain: Sequence[tuple[str, Mapping[str, str]]], kind: str
) -> tuple[str, str] | None:
    """(value, source) of `prop` along `chain` = [(name, local props)...] from the dataset up.

    None when the property does not exist for this dataset (user property never set, or a
    property of the other dataset type).
    """
    own = chain[0][1]
    if prop in own:
        return own[prop], "local"
    if is_user_property(prop) or prop in INHERITABLE:
        for name, local in chain[1:]:
            if prop in local:
                return local[prop], f"inherited from {name}"
    if is_user_property(prop) or not applies(prop, kind) or prop not in DEFAULTS:
        return None
    return DEFAULTS[prop], "default"

"""iSCSI names (RFC 3720 section 3.2.6, RFC 3721, RFC 3980): validation and joining."""

from __future__ import annotations

import re

from sharing.iscsi.engine.errors import InvalidSpec

# RFC 3720 3.2.6.1: an iSCSI name is at most 223 bytes.
MAX_NAME_BYTES = 223
# The panel's own rule for the part it appends to the base name (TrueNAS uses the same).
MAX_TARGET_SUFFIX = 120

_LABEL = r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
# iqn.YYYY-MM.reversed.domain[:anything]; the date's month is 01-12, the domain has no empty label.
_IQN = re.compile(rf"^iqn\.\d{{4}}-(?:0[1-9]|1[0-2])\.{_LABEL}(?:\.{_LABEL})*(?::[-a-z0-9.:]+)?$")
_EUI = re.compile(r"^eui\.[0-9A-F]{16}$")
_NAA = re.compile(r"^naa\.(?:[0-9A-F]{16}|[0-9A-F]{32})$")
_SUFFIX = re.compile(r"^[-a-z0-9.:]+$")


def validate_iqn(name: str) -> str:
    """The IQN in its normal (lower-case) form, or InvalidSpec saying what is wrong."""
    # RFC 3722 stringprep folds case; initiators send the folded form and tgt compares bytes.
    normal = name.strip().lower()
    if not normal.isascii():
        raise InvalidSpec(f"{name!r}: only ASCII letters, digits, '-', '.' and ':' are supported")
    if len(normal.encode()) > MAX_NAME_BYTES:
        raise InvalidSpec(f"{name!r}: an iSCSI name is at most {MAX_NAME_BYTES} bytes")
    if not _IQN.match(normal):
        raise InvalidSpec(
            f"{name!r} is not an IQN: expected iqn.YYYY-MM.reversed.domain[:identifier] "
            "with letters, digits, '-', '.' and ':' only"
        )
    return normal


def validate_eui(name: str) -> str:
    """The EUI-64 name (`eui.` + 16 hex digits) in its normal form, or InvalidSpec."""
    normal = _hex_name(name, "eui")
    if not _EUI.match(normal):
        raise InvalidSpec(f"{name!r} is not an EUI name: expected eui. followed by 16 hex digits")
    return normal


def validate_naa(name: str) -> str:
    """The NAA name (`naa.` + 16 or 32 hex digits, RFC 3980) in its normal form, or InvalidSpec."""
    normal = _hex_name(name, "naa")
    if not _NAA.match(normal):
        raise InvalidSpec(f"{name!r} is not an NAA name: expected naa. + 16 or 32 hex digits")
    return normal


def _hex_name(name: str, prefix: str) -> str:
    """Lower-case type prefix, upper-case hex digits: the form RFC 3720 writes them in."""
    head, _dot, tail = name.strip().partition(".")
    return f"{head.lower()}.{tail.upper()}" if head.lower() == prefix else name.strip()


def validate_name(name: str) -> str:
    """Any iSCSI name (iqn., eui. or naa.) in its normal form, or InvalidSpec."""
    prefix = name.strip()[:4].lower()
    if prefix == "eui.":
        return validate_eui(name)
    if prefix == "naa.":
        return validate_naa(name)
    if prefix == "iqn.":
        return validate_iqn(name)
    raise InvalidSpec(f"{name!r} is not an iSCSI name: it must start with iqn., eui. or naa.")


def is_valid_name(name: str) -> bool:
    """Whether the string is a valid iSCSI name of any type."""
    try:
        validate_name(name)
    except InvalidSpec:
        return False
    return True


def is_full_name(name: str) -> bool:
    """Whether the string already looks like a full iSCSI name rather than a short suffix."""
    return name.strip()[:4].lower() in ("iqn.", "eui.", "naa.")


def validate_target_suffix(name: str) -> str:
    """A short target name to append to the base name ([-a-z0-9.:], at most 120), or InvalidSpec."""
    normal = name.strip().lower()
    if not normal or len(normal) > MAX_TARGET_SUFFIX or not _SUFFIX.match(normal):
        raise InvalidSpec(
            f"{name!r}: a target name uses a-z, 0-9, '-', '.' and ':' "
            f"and is 1 to {MAX_TARGET_SUFFIX} characters"
        )
    return normal


def join_target_name(base: str, name: str) -> str:
    """The target's full name: `base:name`, or `name` itself when it is already a full name."""
    if is_full_name(name):
        return validate_name(name)
    # A base typed with a trailing colon ("iqn.2005-10.org.freenas.ctl:") means the same base.
    base_normal = validate_iqn(base.strip().rstrip(":"))
    return validate_iqn(f"{base_normal}:{validate_target_suffix(name)}")

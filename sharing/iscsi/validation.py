"""Rules for iSCSI input (TrueNAS's, and RFC 3720/3721 for names); errors name the field."""

from __future__ import annotations

import re
from typing import Any

from nasui.validation import fail
from sharing.iscsi.engine import desired, iqn
from sharing.iscsi.engine.errors import InvalidSpec

TARGET_NAME_RE = re.compile(r"^[-a-z0-9.:]+$")
TARGET_NAME_MAX = 120
# CHAP user names: ASCII letters, digits and . _ @ : - (an IQN fits), whole (fullmatch).
CHAP_USER_RE = re.compile(r"[A-Za-z0-9._@:-]{1,64}")


def validate_iscsi_name(name: str, field: str) -> str:
    """An iSCSI name in iqn., eui. or naa. form (RFC 3720/3721), normalised."""
    try:
        return iqn.validate_name(name)
    except InvalidSpec as exc:
        raise fail(field, f"{exc} (e.g. iqn.1991-05.com.microsoft:my-pc).") from exc


def validate_basename(name: str) -> str:
    """The global base name: an iqn. name without the part after a colon."""
    name = validate_iscsi_name(name, "basename")
    if not name.startswith("iqn.") or ":" in name:
        raise fail("basename", "Use the iqn.YYYY-MM.reversed.domain form, without a colon part.")
    return name


def validate_target_name(name: str) -> str:
    """Lowercase letters, digits, - . : ; or a full iqn./eui./naa. name."""
    name = name.strip()
    if not name:
        raise fail("name", "Give the target a name.")
    if name.lower().startswith(("iqn.", "eui.", "naa.")):
        return validate_iscsi_name(name, "name")
    if len(name) > TARGET_NAME_MAX:
        raise fail("name", f"At most {TARGET_NAME_MAX} characters.")
    if not TARGET_NAME_RE.match(name):
        raise fail("name", "Use only lowercase letters, digits, hyphen, period and colon.")
    return name


def target_iqn(basename: str, name: str) -> str:
    """The target's full name: `name` itself when it is a full iSCSI name, else base:name."""
    if name.lower().startswith(("iqn.", "eui.", "naa.")):
        return name
    return f"{basename}:{name}"


def validate_network(text: str, field: str = "networks") -> str:
    """A network, stored in CIDR form (tgt never matches the netmask form)."""
    try:
        return desired.normalize_network(text)
    except InvalidSpec as exc:
        raise fail(field, str(exc)) from exc


def validate_secret(secret: str, field: str) -> str:
    """CHAP secrets: 12-16 bytes of printable ASCII without spaces, no # (CHAP_SECRET_RULE)."""
    problems = desired.chap_secret_problems(secret)
    if problems:
        raise fail(field, f"The secret {'; '.join(problems)}.")
    return secret


def validate_chap_user(user: str, field: str) -> str:
    """CHAP user names: ASCII letters, digits and . _ @ : - (up to 64)."""
    if not CHAP_USER_RE.fullmatch(user):
        raise fail(field, "Use 1 to 64 ASCII letters, digits or . _ @ : - (no spaces).")
    return user


def check_credentials(user: str, secret: str, peer_user: str, peer_secret: str) -> None:
    """CHAP user and secret, and the peer pair for mutual CHAP when either is given."""
    validate_chap_user(user, "user")
    validate_secret(secret, "secret")
    if peer_user or peer_secret:
        if not peer_user:
            raise fail("peer_user", "Mutual CHAP needs a peer user as well as a peer secret.")
        validate_chap_user(peer_user, "peer_user")
        validate_secret(peer_secret, "peer_secret")
        if peer_secret == secret:
            raise fail("peer_secret", "The peer secret must differ from the secret.")


def check_auth_choice(method: str, group: Any, prefix: str) -> str:
    """An authentication method with the auth group it needs (`prefix` names the fields)."""
    if method not in desired.AUTH_MODES:
        choices = ", ".join(desired.AUTH_MODES)
        raise fail(f"{prefix}auth_method", f"Authentication must be one of: {choices}.")
    if method != "none" and group is None:
        raise fail(f"{prefix}auth_group", "CHAP needs an auth group with the user and secret.")
    if method == "mutual" and not group.mutual:
        raise fail(f"{prefix}auth_group", "The auth group has no peer user for mutual CHAP.")
    return method

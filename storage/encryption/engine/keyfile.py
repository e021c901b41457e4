"""The exported key file: the appliance's kept keys, sealed with a passphrase the user types.

Its format is nasui.lib.sealed's under its own magic line (b"NASUI-KEYS\\n"), so a key file is
never taken for a config archive nor the other way round. It holds one member, keys.json:
{"keys": {root name: 64 hex digits}}. A root opened by a typed passphrase has nothing to export:
its passphrase is its key.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping

from nasui.lib.sealed import (
    About,
    ArchiveError,
    Damaged,
    Kind,
    WrongPassphrase,
    open_sealed,
    recipient,
    seal,
)

KEYS = Kind(
    magic=b"NASUI-KEYS\n",
    format=1,
    info=b"nasui key file v1",
    noun="key file",
    title="nasui key file",
)
MEMBER = "keys.json"
HEX_LENGTH = 64


def export(keys: Mapping[str, str], passphrase: str, about: About) -> bytes:
    """A key file holding `keys` (root name -> hex key), sealed with `passphrase`."""
    body = json.dumps({"keys": dict(sorted(keys.items()))}, indent=1).encode()
    return seal({MEMBER: body}, recipient(passphrase), about, KEYS)


def read(blob: bytes, passphrase: str) -> dict[str, str]:
    """The keys in a key file (root name -> hex key); ArchiveError says why not, in words."""
    members = open_sealed(blob, passphrase, KEYS).members
    try:
        keys = json.loads(members[MEMBER])["keys"]
    except (KeyError, ValueError, TypeError) as error:
        raise Damaged("The key file holds no list of keys.") from error
    if not isinstance(keys, dict) or not all(_is_key(k, v) for k, v in keys.items()):
        raise Damaged("The key file holds something that is not a root's key.")
    return dict(keys)


def _is_key(name: object, key: object) -> bool:
    return (
        isinstance(name, str)
        and isinstance(key, str)
        and len(key) == HEX_LENGTH
        and all(c in string.hexdigits for c in key)
    )


__all__ = ["KEYS", "About", "ArchiveError", "WrongPassphrase", "export", "read"]

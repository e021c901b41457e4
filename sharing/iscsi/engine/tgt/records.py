"""What the engine told this tgtd that tgtd cannot show back: secret fingerprints, LUN sizes.

tgt never shows a CHAP secret and prints sizes rounded to MB, so a changed secret or a
slightly grown backing file would go unnoticed. The record lives in the daemon's run
directory: it starts empty with each tgtd, exactly like tgtd's own state.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from nasui.lib.files import write_if_changed


@dataclass
class Records:
    """Salted secret fingerprints per account and exported sizes per LUN."""

    salt: str = field(default_factory=lambda: secrets.token_hex(16))
    accounts: dict[str, str] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)

    def fingerprint(self, user: str, secret: str) -> str:
        """A salted hash standing for the secret (the secret itself is never written)."""
        return hashlib.sha256(f"{self.salt}\0{user}\0{secret}".encode()).hexdigest()

    def knows_secret(self, user: str, secret: str) -> bool:
        """Whether this account was last created with this very secret."""
        return self.accounts.get(user) == self.fingerprint(user, secret)


def lun_key(iqn: str, lun: int, path: str) -> str:
    """The record key of one exported LUN."""
    return f"{iqn}\0{lun}\0{path}"


def load(path: Path) -> Records:
    """The records in `path`, or empty ones when it is missing or unreadable."""
    try:
        data = json.loads(path.read_text())
        return Records(
            salt=str(data["salt"]),
            accounts={str(k): str(v) for k, v in data["accounts"].items()},
            sizes={str(k): int(v) for k, v in data["sizes"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return Records()


def save(path: Path, records: Records) -> None:
    """Write the records atomically and owner-only (they hold fingerprints), when they changed."""
    text = json.dumps(
        {"salt": records.salt, "accounts": records.accounts, "sizes": records.sizes},
        sort_keys=True,
        indent=1,
    )
    write_if_changed(path, text, mode=0o600)

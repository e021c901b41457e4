"""This box's authorized_keys: a paired nasui's public key added, once, as OpenSSH reads it.

The key is parsed by the cryptography library before a byte is written: a line that is not
one public key (options, a second key, shell text) is refused, so pairing can add a key and
nothing else. The file stays owner-only, as sshd's StrictModes requires.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cryptography.hazmat.primitives import serialization

from replication.connections.engine.hostkeys import HostKey, parse

KINDS = ("ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
         "ssh-rsa")  # fmt: skip
COMMENT = re.compile(r"^[A-Za-z0-9@._:+-]{0,100}$")


class BadKey(ValueError):
    """Not one OpenSSH public key of a kind sshd accepts."""


def check_public_key(line: str) -> tuple[str, str]:
    """(kind, base64 blob) of one OpenSSH public key line; BadKey in words otherwise."""
    fields = line.strip().split()
    if len(fields) < 2 or fields[0] not in KINDS:
        raise BadKey(f"Not an OpenSSH public key: it must start with one of {', '.join(KINDS)}.")
    try:
        serialization.load_ssh_public_key(f"{fields[0]} {fields[1]}".encode())
    except (ValueError, TypeError) as exc:
        raise BadKey(f"Not a valid {fields[0]} public key: {exc}") from exc
    return fields[0], fields[1]


def add_key(path: Path, line: str, comment: str) -> bool:
    """Add the key under `comment`; False when it was there already (nothing written)."""
    kind, blob = check_public_key(line)
    if not COMMENT.match(comment):
        raise BadKey("A key's comment is 0-100 letters, digits or @ . _ : + -.")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    existing = path.read_text() if path.exists() else ""
    if any(fields[1:2] == [blob] for fields in (ln.split() for ln in existing.splitlines())):
        return False
    separator = "" if not existing or existing.endswith("\n") else "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a") as handle:
        handle.write(f"{separator}{kind} {blob} {comment}".rstrip() + "\n")
    path.chmod(0o600)
    return True


def host_keys(paths: list[Path]) -> list[HostKey]:
    """This box's SSH host keys, from the servers' .pub files."""
    text = "".join(f"host {p.read_text()}" for p in sorted(paths) if p.is_file())
    return parse(text)

"""The other side's host keys: scanned once, pinned, then required on every connection.

Trust on first use, as ssh itself offers it, but explicit: the panel shows the fingerprints it
pinned, and a later key that differs is refused with the old and the new fingerprints named.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

from nasui.lib.hosts import valid_host
from replication.connections.engine.errors import Unreachable
from replication.connections.engine.keys import fingerprint

KINDS = "ed25519,ecdsa,rsa"  # what is asked for, strongest first


@dataclass(frozen=True)
class HostKey:
    """One host key: its type (ssh-ed25519, ...) and base64 blob."""

    kind: str
    blob: str

    @property
    def fingerprint(self) -> str:
        """SHA256:..., as ssh prints it."""
        return fingerprint(self.blob)


def pattern(host: str, port: int) -> str:
    """How known_hosts names the host: bare on port 22, else [host]:port."""
    return host if port == 22 else f"[{host}]:{port}"


def known_hosts(host: str, port: int, keys: Sequence[HostKey]) -> str:
    """known_hosts lines pinning `keys` for host:port."""
    return "".join(f"{pattern(host, port)} {key.kind} {key.blob}\n" for key in keys)


def scan(host: str, port: int, *, timeout: int = 10) -> list[HostKey]:
    """The host keys host:port offers now (ssh-keyscan); none answering is Unreachable."""
    if not valid_host(host):
        raise ValueError(f"not a host name or address: {host!r}")
    argv = ["ssh-keyscan", "-T", str(timeout), "-p", str(port), "-t", KINDS, host]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout + 5, check=False)
    keys = parse(done.stdout)
    if not keys:
        raise Unreachable(f"No SSH server answered at {host} port {port}.")
    return keys


def parse(text: str) -> list[HostKey]:
    """Keys from ssh-keyscan's output (comments and blank lines skipped)."""
    keys = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 3 and not line.startswith("#"):
            keys.append(HostKey(fields[1], fields[2]))
    return keys

"""Reads of SSH connections: rows, the engine's view of one, what to paste on the other side."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from replication.connections.engine import hostkeys
from replication.connections.engine.errors import SshError
from replication.connections.engine.hostkeys import HostKey
from replication.connections.engine.ssh import Remote
from replication.models import SshConnection

SCAN_TIMEOUT = 5  # seconds ssh-keyscan waits: a page or a request waits on it


@dataclass(frozen=True)
class Offered:
    """The host keys the other side offers now, or why none could be read."""

    keys: tuple[HostKey, ...]
    problem: str = ""

    @property
    def fingerprints(self) -> list[str]:
        """SHA256:... of each key offered."""
        return [key.fingerprint for key in self.keys]


def connection_queryset() -> QuerySet[SshConnection]:
    """Every connection, in the model's order."""
    return SshConnection.objects.all()


def connection_get(pk: int) -> SshConnection:
    """One connection, or a 404."""
    try:
        return SshConnection.objects.get(pk=pk)
    except SshConnection.DoesNotExist:
        raise Http404(f"No SSH connection {pk}.") from None


def pinned_keys(connection: SshConnection) -> tuple[HostKey, ...]:
    """The host keys pinned for the connection."""
    return tuple(HostKey(key["kind"], key["blob"]) for key in connection.host_keys)


def fingerprints(connection: SshConnection) -> list[str]:
    """SHA256:... of each pinned host key, as `ssh-keygen -l` prints them on the other side."""
    return [key.fingerprint for key in pinned_keys(connection)]


def remote(connection: SshConnection) -> Remote:
    """What the engine needs to run a command over the connection."""
    return Remote(
        host=connection.host,
        port=connection.port,
        user=connection.user,
        private_key=connection.private_key,
        host_keys=pinned_keys(connection),
    )


def authorize_command(connection: SshConnection) -> str:
    """The line to run on the other side so that it accepts this box's key for the user.

    The public line is base64 and a comment without quotes: single quotes keep it one word.
    """
    return f"echo '{connection.public_key}' >> ~{connection.user}/.ssh/authorized_keys"


def offered_keys(connection: SshConnection) -> Offered:
    """The host keys the other side offers now (for the re-pin page to show before pinning)."""
    try:
        return Offered(tuple(hostkeys.scan(connection.host, connection.port, timeout=SCAN_TIMEOUT)))
    except (SshError, OSError, subprocess.SubprocessError) as exc:
        return Offered((), str(exc))

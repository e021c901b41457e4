"""SSH connections: made with a new key pair and the other side's host keys pinned, checked,
re-pinned only when the user says so, renamed, deleted; or made by pairing with another nasui
(and, on that nasui, the pairing accepted).

Nothing is saved until every step has worked: a refused address leaves no row and no key.
"""

from __future__ import annotations

import getpass
import glob
import re
import socket
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import IntegrityError
from django.utils import timezone

from nasui.lib.hosts import valid_host
from nasui.validation import fail, refusal
from replication.connections.engine import authorized, hostkeys, keys, pairing, ssh
from replication.connections.engine.authorized import BadKey
from replication.connections.engine.errors import SshError
from replication.connections.engine.hostkeys import HostKey
from replication.connections.selectors import SCAN_TIMEOUT, remote
from replication.models import SshConnection

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NAME_RULE = "1-64 letters, digits, - _ or ., starting with a letter or a digit"
# POSIX's portable user names (never an option: no leading '-').
USER = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,31}$")
USER_RULE = "1-32 letters, digits, _ . or -, starting with a letter or _"
ADDRESS = ("host", "port", "user")
CHECK_TIMEOUT = 30  # seconds for `true` to run there, connection included
# A failure no SshError covers (ssh missing, a timeout of ssh-keyscan itself).
TOOL_ERRORS = (OSError, subprocess.SubprocessError)


@dataclass(frozen=True)
class Offer:
    """What a paired nasui needs to reach this box: the SSH user, port and host keys."""

    user: str
    port: int
    host_keys: list[HostKey]


def _check_name(name: str, connection: SshConnection) -> str:
    """A valid name no other connection has."""
    name = name.strip()
    if not NAME.match(name):
        raise fail("name", f"Use {NAME_RULE}.")
    if SshConnection.objects.filter(name=name).exclude(pk=connection.pk).exists():
        raise fail("name", f"A connection named “{name}” already exists.")
    return name


def _check_address(host: str, port: int, user: str) -> None:
    """Host, port and user, each refused on its own field."""
    if not valid_host(host):
        raise fail("host", f"“{host}” is not an IP address or a host name.")
    if not isinstance(port, int) or not 1 <= port <= 65535:
        raise fail("port", "Use a port from 1 to 65535.")
    if not USER.match(user):
        raise fail("user", f"Use a user name of {USER_RULE}.")


def _scan(host: str, port: int, field: str) -> list[HostKey]:
    """The host keys host:port offers now; nothing answering is a refusal on `field`."""
    try:
        return hostkeys.scan(host, port, timeout=SCAN_TIMEOUT)
    except SshError as exc:
        raise fail(field, str(exc)) from exc
    except TOOL_ERRORS as exc:
        raise fail(field, f"Could not read the host keys of {host} port {port}: {exc}") from exc


def _pinned(found: Iterable[HostKey]) -> list[dict[str, str]]:
    """Host keys as the row keeps them."""
    return [{"kind": key.kind, "blob": key.blob} for key in found]


def _saved(connection: SshConnection, fields: list[str] | None = None) -> SshConnection:
    """Save (only `fields` if given); a name taken meanwhile is refused on its field."""
    try:
        connection.save(update_fields=fields)
    except IntegrityError as exc:
        raise fail("name", f"A connection named “{connection.name}” already exists.") from exc
    return connection


def connection_create(*, name: str, host: str, port: int = 22, user: str = "root") -> SshConnection:
    """A new connection: its own key pair, and the host keys the other side offers now pinned."""
    connection = SshConnection(host=host.strip(), port=port, user=user.strip())
    connection.name = _check_name(name, connection)
    _check_address(connection.host, connection.port, connection.user)
    connection.host_keys = _pinned(_scan(connection.host, connection.port, "host"))
    pair = keys.generate(f"nasui@{socket.gethostname()}")
    connection.private_key, connection.public_key = pair.private, pair.public
    return _saved(connection)


def connection_update(*, connection: SshConnection, **values: Any) -> SshConnection:
    """Rename a connection. Its address cannot change: the key authorized and the host key
    pinned belong to that box, so another box is another connection."""
    for field, value in values.items():
        if field in ADDRESS and value != getattr(connection, field):
            raise fail(
                field,
                "A connection's host, port and user cannot change: add a new connection "
                "(its key must be authorized there and its host key pinned), then delete this one.",
            )
        if field not in (*ADDRESS, "name"):
            raise fail(field, "Unknown field.")
    if "name" in values:
        connection.name = _check_name(values["name"], connection)
        _saved(connection, ["name"])
    return connection


def connection_check(*, connection: SshConnection) -> SshConnection:
    """Run `true` on the other side. Success is dated; a failure is kept on the connection and
    refused with the engine's words (a changed host key names both fingerprints)."""
    try:
        ssh.run(remote(connection), ["true"], timeout=CHECK_TIMEOUT)
    except (SshError, *TOOL_ERRORS) as exc:
        connection.last_error = str(exc)
        connection.save(update_fields=["last_error"])
        raise refusal(str(exc)) from exc
    connection.checked_at, connection.last_error = timezone.now(), ""
    connection.save(update_fields=["checked_at", "last_error"])
    return connection


def connection_repin(*, connection: SshConnection, expected: Iterable[str] = ()) -> SshConnection:
    """Replace the pinned host keys with those the other side offers now: the user's explicit
    choice after a refusal, e.g. once the other box was reinstalled. With `expected` (the
    fingerprints the user was shown), keys other than those are refused, not pinned."""
    offered = _scan(connection.host, connection.port, NON_FIELD_ERRORS)
    seen = {key.fingerprint for key in offered}
    wanted = set(expected)
    if wanted and wanted != seen:
        raise refusal(
            f"{connection.host} port {connection.port} now offers {', '.join(sorted(seen))}, "
            f"not the key you confirmed ({', '.join(sorted(wanted))}): nothing was pinned. "
            "Look again before pinning."
        )
    connection.host_keys, connection.last_error = _pinned(offered), ""
    connection.save(update_fields=["host_keys", "last_error"])
    return connection


def connection_delete(*, connection: SshConnection) -> None:
    """Delete the connection and its key (the other side's authorized_keys keeps the line)."""
    connection.delete()


def pairing_accept(*, public_key: str, comment: str) -> Offer:
    """Authorize a pairing nasui's key here (once); what it needs to reach this box over SSH."""
    try:
        authorized.add_key(settings.NASUI_AUTHORIZED_KEYS, public_key, comment)
    except BadKey as exc:
        raise fail("public_key", str(exc)) from exc
    except OSError as exc:
        raise refusal(f"Could not add the key to {settings.NASUI_AUTHORIZED_KEYS}: {exc}") from exc
    found = authorized.host_keys([Path(p) for p in glob.glob(settings.NASUI_SSH_HOST_KEYS)])
    if not found:
        raise refusal("This box's SSH server has no host keys: is openssh-server installed?")
    return Offer(getpass.getuser(), settings.NASUI_SSH_PORT, found)


def connection_pair(
    *,
    name: str,
    address: str,
    username: str,
    password: str,
    code: str = "",
    ssh_port: int | None = None,
) -> SshConnection:
    """A connection to another nasui, its key authorized there with an administrator's name
    and password (used once, kept nowhere), and its host keys pinned only if the other panel
    and its SSH server name the same ones. `ssh_port`: where its SSH server answers from here
    when that is not the port it names (a router forwarding another one); None: that port."""
    connection = SshConnection()
    connection.name = _check_name(name, connection)
    if ssh_port is not None and not 1 <= ssh_port <= 65535:
        raise fail("ssh_port", "Use a port from 1 to 65535, or leave it blank.")
    pair = keys.generate(f"nasui@{socket.gethostname()}")
    try:
        target = pairing.panel(address)
        answer = pairing.pair(
            target, username, password, pair.public, pair.public.split()[-1], code=code
        )
    except pairing.PairingError as exc:
        raise fail(exc.field, exc.message) from exc
    connection.host, connection.user = target.host, answer.user
    connection.port = answer.port if ssh_port is None else ssh_port
    _check_address(connection.host, connection.port, connection.user)
    scanned = _scan(connection.host, connection.port, "address")
    told = {key.fingerprint for key in answer.host_keys}
    if {key.fingerprint for key in scanned} != told:
        raise fail("address", f"The SSH server at {connection.host} port {connection.port} "
                   "offers other host keys than its panel names: another machine may be "
                   "answering. Nothing was pinned.")  # fmt: skip
    connection.host_keys = _pinned(scanned)
    connection.private_key, connection.public_key = pair.private, pair.public
    try:
        ssh.run(remote(connection), ["true"], timeout=CHECK_TIMEOUT)
    except (SshError, *TOOL_ERRORS) as exc:
        raise fail("address", f"Paired, but SSH to {connection.host} failed: {exc}") from exc
    connection.checked_at = timezone.now()
    return _saved(connection)

"""Commands run on the other side over ssh, with this box's key and the pinned host keys only.

ssh hands the command to the other side's shell as one string: every argument is quoted there
(shlex.join), and none comes from a shell here (argument lists only).
"""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from nasui.lib.hosts import valid_host
from replication.connections.engine.errors import (
    AuthRefused,
    HostKeyChanged,
    RemoteFailed,
    SshError,
    Unreachable,
)
from replication.connections.engine.hostkeys import HostKey, known_hosts, scan

CONNECT_TIMEOUT = 10
# A link with no answer for ALIVE_INTERVAL * ALIVE_COUNT seconds is dropped, not waited on.
ALIVE_INTERVAL, ALIVE_COUNT = 15, 4
MASTER_IDLE = 60  # seconds the shared connection outlives its last command (if not stopped)


@dataclass(frozen=True)
class Remote:
    """Where to connect and as whom: address, port, user, this box's key, the pinned host keys."""

    host: str
    port: int
    user: str
    private_key: str
    host_keys: tuple[HostKey, ...]

    @property
    def where(self) -> str:
        """user@host:port, for messages."""
        return f"{self.user}@{self.host} port {self.port}"


@contextmanager
def session(remote: Remote, *, compression: bool = False) -> Iterator[list[str]]:
    """The ssh argv prefix for `remote`, its key and known_hosts in an owner-only folder.

    `compression` compresses the stream on the wire (worth it on a slow link only).
    """
    if not valid_host(remote.host) or remote.user.startswith("-") or not remote.user:
        raise ValueError(f"not a host or user to connect to: {remote.where!r}")
    with tempfile.TemporaryDirectory(prefix="nasui-ssh-") as folder:
        key, pinned = Path(folder, "id"), Path(folder, "known_hosts")
        key.touch(0o600)
        key.write_text(remote.private_key)
        pinned.write_text(known_hosts(remote.host, remote.port, remote.host_keys))
        control = Path(folder, "control")
        try:
            yield [*_options(remote, key, pinned, control, compression), "--", remote.host]
        finally:
            _close_master(control, remote.host)


def _options(
    remote: Remote, key: Path, pinned: Path, control: Path, compression: bool
) -> list[str]:
    """ssh and its options: this key only, the pinned host keys only, no prompts, one shared
    connection for every command of the session (a handshake costs more than most commands)."""
    return [
        "ssh", "-i", str(key), "-p", str(remote.port), "-l", remote.user,
        "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
        "-o", "StrictHostKeyChecking=yes", "-o", f"UserKnownHostsFile={pinned}",
        "-o", "GlobalKnownHostsFile=/dev/null", "-o", "UpdateHostKeys=no",
        "-o", f"ConnectTimeout={CONNECT_TIMEOUT}",
        "-o", f"ServerAliveInterval={ALIVE_INTERVAL}",
        "-o", f"ServerAliveCountMax={ALIVE_COUNT}",
        "-o", f"Compression={'yes' if compression else 'no'}",
        "-o", "ControlMaster=auto", "-o", f"ControlPath={control}",
        "-o", f"ControlPersist={MASTER_IDLE}",
        "-F", "/dev/null",
    ]  # fmt: skip


def _close_master(control: Path, host: str) -> None:
    """Stop the session's shared connection (it would otherwise idle out by itself)."""
    if control.exists():
        subprocess.run(["ssh", "-o", f"ControlPath={control}", "-F", "/dev/null", "-O", "exit",
                        "--", host], capture_output=True, timeout=10, check=False)  # fmt: skip


def run(remote: Remote, command: Sequence[str], *, timeout: float = 60) -> str:
    """Run `command` on the other side; its output, or a typed error saying what went wrong."""
    with session(remote) as prefix:
        argv = [*prefix, shlex.join(command)]
        try:
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired as error:
            raise Unreachable(f"{remote.where} did not answer within {timeout:.0f} s.") from error
    if done.returncode == 255:  # ssh's own failure: the connection, not the command
        raise classify(remote, done.stderr)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise RemoteFailed(f"{shlex.join(command)} failed on {remote.host}: {said[0]}")
    return done.stdout


def classify(remote: Remote, stderr: str) -> SshError:
    """ssh's complaint in words a user can act on."""
    if (
        "REMOTE HOST IDENTIFICATION HAS CHANGED" in stderr
        or "Host key verification failed" in stderr
    ):
        return HostKeyChanged(_changed(remote))
    if "Permission denied" in stderr:
        return AuthRefused(
            f"{remote.where} refused this box's key: add its public key to "
            f"~{remote.user}/.ssh/authorized_keys on {remote.host}."
        )
    last = stderr.strip().splitlines()[-1:] or ["no answer"]
    return Unreachable(f"Cannot connect to {remote.where}: {last[0]}")


def _changed(remote: Remote) -> str:
    """The refusal, with the pinned and (if it answers) the offered fingerprints."""
    pinned = ", ".join(key.fingerprint for key in remote.host_keys) or "none"
    try:
        offered = ", ".join(key.fingerprint for key in scan(remote.host, remote.port))
    except (SshError, OSError, subprocess.SubprocessError):
        offered = "unknown"
    return (
        f"Refused: {remote.host} port {remote.port} now offers a host key ({offered}) other "
        f"than the one pinned ({pinned}). If that box was reinstalled, pin its new key; "
        "otherwise someone may be between the two boxes."
    )

"""A real OpenSSH server on a free loopback port for tests: its own host key, authorized keys."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from nasui.lib.net import free_loopback_port

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
CONFIG = """Port {port}
ListenAddress 127.0.0.1
HostKey {folder}/host_key
PidFile {folder}/sshd.pid
AuthorizedKeysFile {folder}/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
"""


class Sshd:
    """sshd -D in the background; restart() may give it a new host key."""

    def __init__(self, folder: Path) -> None:
        """Configure a server in `folder` (not started)."""
        self.folder = folder
        self.port = free_loopback_port()
        self.process: subprocess.Popen[bytes] | None = None
        (folder / "authorized_keys").touch()
        (folder / "sshd_config").write_text(CONFIG.format(port=self.port, folder=folder))
        self.new_host_key()

    def new_host_key(self) -> None:
        """A fresh Ed25519 host key (takes effect at the next start)."""
        for name in ("host_key", "host_key.pub"):
            (self.folder / name).unlink(missing_ok=True)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        str(self.folder / "host_key")], check=True)  # fmt: skip

    @property
    def host_key_blob(self) -> str:
        """The base64 blob of the current host key."""
        return (self.folder / "host_key.pub").read_text().split()[1]

    def authorize(self, public_line: str) -> None:
        """Accept a client key for root."""
        with (self.folder / "authorized_keys").open("a") as handle:
            handle.write(public_line + "\n")

    def start(self) -> None:
        """Start and wait until the port accepts connections."""
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # privilege separation
        argv = [SSHD, "-D", "-e", "-f", str(self.folder / "sshd_config")]
        log = (self.folder / "sshd.log").open("ab")
        self.process = subprocess.Popen(argv, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            # One patient probe at a time: an emulated guest answers in seconds, and probes
            # that give up early pile up past sshd's MaxStartups, which then drops them all.
            probe = subprocess.run(["ssh-keyscan", "-T", "10", "-t", "ed25519", "-p",
                                    str(self.port), "127.0.0.1"],
                                   capture_output=True, text=True, check=False)  # fmt: skip
            if probe.stdout.strip():
                return
            time.sleep(0.2)
        raise RuntimeError((self.folder / "sshd.log").read_text())

    def stop(self) -> None:
        """Stop the server."""
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def restart(self, *, new_host_key: bool = False) -> None:
        """Stop, optionally change the host key, start."""
        self.stop()
        if new_host_key:
            self.new_host_key()
        self.start()

"""Where a private Samba keeps its files: every path its smb.conf names is under one directory."""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sharing.smb.engine.errors import ENGINE, SmbStartFailed

# Samba puts unix sockets under the lock and ncalrpc directories (msg.sock/<pid>, np/<pipe>);
# sun_path holds 108 bytes, so those two directories must have short paths.
MAX_SOCKET_DIR = 70


@dataclass(frozen=True)
class SmbLayout:
    """The run directory's files: smb.conf, account files, passdb, Samba's state, the log."""

    run_dir: Path

    @property
    def conf(self) -> Path:
        """The live smb.conf the running smbd reads."""
        return self.run_dir / "smb.conf"

    @property
    def candidate_dir(self) -> Path:
        """Where a new configuration is checked with testparm before it goes live."""
        return self.run_dir / "candidate"

    @property
    def accounts_dir(self) -> Path:
        """The nss_wrapper passwd and group files of a wrapped smbd."""
        return self.run_dir / "accounts"

    @property
    def private_dir(self) -> Path:
        """Samba's private directory: the smbpasswd passdb and secrets.tdb."""
        return self.run_dir / "private"

    @property
    def smbpasswd(self) -> Path:
        """The passdb, rendered from the users' NT hashes."""
        return self.private_dir / "smbpasswd"

    @property
    def pid_dir(self) -> Path:
        """Where smbd writes smbd.pid."""
        return self.run_dir / "pid"

    @property
    def pid_file(self) -> Path:
        """smbd's own pid file (smbcontrol finds the daemon through it)."""
        return self.pid_dir / "smbd.pid"

    @property
    def log(self) -> Path:
        """smbd's log file (its start-up errors and refusals)."""
        return self.run_dir / "log.smbd"

    @property
    def lock_file(self) -> Path:
        """One apply/start/stop at a time across panel processes."""
        return self.run_dir / "engine.lock"

    @property
    def socket_dir(self) -> Path:
        """`run_dir/sock`, or a private directory in /tmp when that path is too long."""
        sock = self.run_dir / "sock"
        if len(str(sock)) <= MAX_SOCKET_DIR:
            return sock
        digest = hashlib.sha256(str(self.run_dir.resolve()).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"nasui-smb-{digest}"

    def data_dirs(self) -> dict[str, Path]:
        """smb.conf's directory parameters and where each one points."""
        return {
            "private dir": self.private_dir,
            "lock directory": self.socket_dir / "lock",
            "ncalrpc dir": self.socket_dir / "ncalrpc",
            "state directory": self.run_dir / "state",
            "cache directory": self.run_dir / "cache",
            "pid directory": self.pid_dir,
        }

    def ensure(self) -> None:
        """Create the run directory (owner-only) and Samba's directories inside it."""
        for top in {self.run_dir, self.socket_dir}:
            top.mkdir(mode=0o700, parents=True, exist_ok=True)
            _check_private(top)
        for name, path in self.data_dirs().items():
            # testparm warns unless these are 0755; the 0700 run directory keeps them private.
            path.mkdir(mode=0o700 if name == "private dir" else 0o755, exist_ok=True)
        self.candidate_dir.mkdir(mode=0o700, exist_ok=True)


def _check_private(directory: Path) -> None:
    """Refuse a symlink or someone else's directory; close ours to others (mode 0700)."""
    info = os.lstat(directory)
    if directory.is_symlink() or not directory.is_dir():
        raise SmbStartFailed(f"{ENGINE}: {directory} is not a directory")
    if info.st_uid != os.geteuid():
        raise SmbStartFailed(f"{ENGINE}: {directory} belongs to uid {info.st_uid}, not to us")
    if info.st_mode & 0o077:
        os.chmod(directory, 0o700)

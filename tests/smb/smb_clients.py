"""The real SMB clients of the live tests: Samba's `smbclient` and the Python smbprotocol package.

Passwords go to smbclient through an authentication file (-A), never on its command line.
"""

from __future__ import annotations

import re
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
TIMEOUT = 30
_STATUS = re.compile(r"NT_STATUS_[A-Z_]+")


@dataclass(frozen=True)
class Result:
    """smbclient's exit status and output; `ok` also needs no NT_STATUS error in the output.

    smbclient exits 0 after a failed `put` in a command list: its words are what count.
    """

    returncode: int
    output: str

    @property
    def statuses(self) -> list[str]:
        """Every NT_STATUS_... code smbclient printed."""
        return _STATUS.findall(self.output)

    @property
    def ok(self) -> bool:
        """Whether every command succeeded."""
        return self.returncode == 0 and not self.statuses


@dataclass(frozen=True)
class SmbClient:
    """Runs smbclient against one port, with a private client config in `workdir`."""

    port: int
    workdir: Path

    def run(
        self,
        share: str,
        commands: str,
        *,
        user: str | None = None,
        password: str = "",
        cwd: Path | None = None,
        timeout: float = TIMEOUT,
    ) -> Result:
        """`smbclient //HOST/share -c commands` as `user` (None: anonymous, no password)."""
        argv = ["smbclient", f"//{HOST}/{share}", "-p", str(self.port), "-m", "SMB3"]
        argv += ["-s", str(self._client_conf()), "-c", commands]
        argv += ["-A", str(self._auth_file(user, password))] if user is not None else ["-N"]
        proc = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=cwd or self.workdir,
        )
        return Result(proc.returncode, proc.stdout + proc.stderr)

    def list_shares(self, *, user: str | None = None, password: str = "") -> Result:
        """`smbclient -L //HOST` (over the srvsvc RPC pipe: smbd starts samba-dcerpcd)."""
        argv = ["smbclient", "-L", f"//{HOST}", "-p", str(self.port), "-m", "SMB3"]
        argv += ["-s", str(self._client_conf())]
        argv += ["-A", str(self._auth_file(user, password))] if user is not None else ["-N"]
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=TIMEOUT, check=False, cwd=self.workdir
        )
        return Result(proc.returncode, proc.stdout + proc.stderr)

    def _client_conf(self) -> Path:
        """A client smb.conf of our own: the host's /etc/samba/smb.conf plays no part."""
        conf = self.workdir / "client.conf"
        if not conf.exists():
            conf.write_text("[global]\n\tclient min protocol = SMB2_02\n")
        return conf

    def _auth_file(self, user: str, password: str) -> Path:
        """An owner-only authentication file (smbclient -A) for one call."""
        path = self.workdir / f"auth-{uuid.uuid4().hex}"
        path.touch(mode=0o600)
        path.write_text(f"username = {user}\npassword = {password}\n")
        return path


@contextmanager
def smbprotocol_session(port: int, user: str, password: str) -> Iterator[dict[str, Any]]:
    """A logged-on smbprotocol session (NTLM) in a private connection cache, closed after."""
    import smbclient

    cache: dict[str, Any] = {}
    try:
        smbclient.register_session(
            HOST,
            username=user,
            password=password,
            port=port,
            connection_cache=cache,
            auth_protocol="ntlm",
        )
        yield cache
    finally:
        # A share the server took away fails its tree disconnect: cleanup must not fail a test.
        smbclient.reset_connection_cache(fail_on_error=False, connection_cache=cache)


def unc(share: str, name: str = "") -> str:
    r"""\\HOST\share\name as smbprotocol spells paths."""
    return rf"\\{HOST}\{share}" + (rf"\{name}" if name else "")


def write_file(cache: dict[str, Any], port: int, share: str, name: str, data: bytes) -> None:
    """Write `data` to share/name over smbprotocol."""
    import smbclient

    with smbclient.open_file(
        unc(share, name), mode="wb", port=port, connection_cache=cache
    ) as handle:
        handle.write(data)


def read_file(cache: dict[str, Any], port: int, share: str, name: str) -> bytes:
    """Read share/name over smbprotocol."""
    import smbclient

    with smbclient.open_file(
        unc(share, name), mode="rb", port=port, connection_cache=cache
    ) as handle:
        data: bytes = handle.read()
    return data


def list_dir(cache: dict[str, Any], port: int, share: str) -> list[str]:
    """The names in a share's top directory over smbprotocol."""
    import smbclient

    return sorted(smbclient.listdir(unc(share), port=port, connection_cache=cache))

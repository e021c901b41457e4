"""Real iSCSI initiators for the tests: Debian's libiscsi tools and qemu's iSCSI driver."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

TIMEOUT = 60


@dataclass(frozen=True)
class Login:
    """Where and as whom an initiator logs in."""

    port: int
    initiator: str
    user: str = ""
    secret: str = ""
    target_user: str = ""
    target_secret: str = ""

    def url(self, iqn: str = "", lun: int | None = None) -> str:
        """A libiscsi URL: iscsi://user%secret@127.0.0.1:port/iqn/lun?target_user=..."""
        auth = f"{self.user}%{self.secret}@" if self.user else ""
        path = f"/{iqn}/{lun}" if iqn and lun is not None else (f"/{iqn}" if iqn else "")
        mutual = (
            f"?target_user={self.target_user}&target_password={self.target_secret}"
            if self.target_user
            else ""
        )
        return f"iscsi://{auth}127.0.0.1:{self.port}{path}{mutual}"


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run a client command (argument list, no shell) and return what it said."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def discover(login: Login) -> subprocess.CompletedProcess[str]:
    """SendTargets discovery."""
    return run(["iscsi-ls", "-i", login.initiator, login.url()])


def capacity(login: Login, iqn: str, lun: int) -> subprocess.CompletedProcess[str]:
    """READ CAPACITY(16): size and block size of a LUN."""
    return run(["iscsi-readcapacity16", "-i", login.initiator, login.url(iqn, lun)])


def qemu_io(login: Login, iqn: str, lun: int, command: str) -> subprocess.CompletedProcess[str]:
    """One qemu-io command (e.g. `write -P 0xa5 0 1M`) through qemu's iSCSI block driver."""
    opts = [
        "driver=iscsi",
        "transport=tcp",
        f"portal=127.0.0.1:{login.port}",
        f"target={iqn}",
        f"lun={lun}",
        f"initiator-name={login.initiator}",
    ]
    if login.user:
        opts += [f"user={login.user}", f"password={login.secret}"]
    return run(["qemu-io", "--image-opts", ",".join(opts), "-c", command])

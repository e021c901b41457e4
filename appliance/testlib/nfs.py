"""The host's NFS client (libnfs-utils: userspace, no kernel module) against the appliance's nfsd.

The same recipe as the VM lane (tests/vm/host_checks.py): NFSv4 only, through the port forwarded
to the guest's 2049, so libnfs asks no portmapper. libnfs 4.0 reads over NFSv4 fine (its v4
writes fail in the client), so the file is written over SMB and read here. With qemu user
networking the host's connections reach the guest from 10.0.2.2; libnfs run as root binds a
port below 1024, so the export's default `secure` admits it.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from appliance.testlib.config import NFS_PATH, SMB_FILE, ResultDict
from appliance.testlib.poll import poll
from appliance.testlib.vm import VM


def nfs_url(vm: VM, path: str, name: str, uid: int, gid: int) -> str:
    """nfs://127.0.0.1/EXPORT/NAME?version=4&nfsport=P&uid=U&gid=G (libnfs 4.0: no host:port)."""
    return f"nfs://127.0.0.1{path}/{name}?version=4&nfsport={vm.nfs_port}&uid={uid}&gid={gid}"


def nfs_fetch(vm: VM, state: ResultDict) -> tuple[subprocess.CompletedProcess[str], Path]:
    """nfs-cp the SMB test's file from the export to the host as its owner (bounded)."""
    workdir = vm.workdir / "nfs"
    workdir.mkdir(exist_ok=True)
    copy = workdir / "fetched.bin"
    copy.unlink(missing_ok=True)
    url = nfs_url(vm, NFS_PATH, SMB_FILE, state["smb_uid"], state["smb_gid"])
    argv = ["nfs-cp", url, str(copy)]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    except subprocess.TimeoutExpired as exc:
        proc = subprocess.CompletedProcess(argv, -1, "", f"nfs-cp timed out: {exc}")
    return proc, copy


def _same(answer: tuple[subprocess.CompletedProcess[str], Path], data: bytes) -> bool:
    proc, copy = answer
    return proc.returncode == 0 and copy.exists() and copy.read_bytes() == data


def assert_nfs_reads_back(vm: VM, state: ResultDict, timeout: float = 180) -> None:
    """The NFS client reads the file SMB wrote, byte-identical (bounded wait).

    After a boot nfsd refuses OPEN during its NFSv4 grace period (up to 90 s from its start, the
    lease time), and after an upgrade the SMB supervisor re-writes the exports: poll.
    """
    started = time.monotonic()
    proc, copy = poll(lambda: nfs_fetch(vm, state), lambda a: _same(a, state["smb_data"]), timeout)
    assert proc.returncode == 0, f"nfs-cp exit {proc.returncode}: {proc.stdout}{proc.stderr}"
    assert copy.read_bytes() == state["smb_data"], "the bytes read over NFS differ"
    print(f"\nNFSv4 read of {SMB_FILE} byte-identical after {time.monotonic() - started:.1f}s")

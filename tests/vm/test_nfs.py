"""The NFS engine on the VM's kernel server and real OpenZFS, checked by libnfs on the HOST.

The guest applies desired states with NfsEngine; the host helper (tests/vm/host_checks.py)
runs nfs-ls and nfs-cp through the ports scripts/zfsvm.sh forwards to the guest's 2049 (NFS)
and 20048 (rpc.mountd, pinned there for NFSv3; libnfs then needs no portmapper). With qemu
user networking the host's connections reach the guest from 10.0.2.2.

libnfs 4.0 (Debian 12) lists and reads over NFSv4, but its NFSv4 writes fail in the client:
nfs-cp creates the file (OPEN, CLOSE reach nfsd) and reports "Failed to write to dest file"
without sending a WRITE (seen with no_root_squash on tmpfs too). So the host writes over
NFSv3 and reads the bytes back over NFSv4; the state offers both versions.
The guest has no systemd: the module starts rpcbind, rpc.mountd and rpc.nfsd itself (the
appliance's nfs-server unit does the same), so the engine is given no restart command and
the test restarts nfsd itself where the versions change.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from vmhelpers import ask_host as ask_helper
from vmhelpers import assert_all_ok, wait_for

from sharing.nfs.engine.desired import NfsExportSpec, NfsState
from sharing.nfs.engine.errors import ExportsRejected
from sharing.nfs.engine.server import NfsEngine
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

POOL = "nfspool"
MEDIA = f"/{POOL}/media"
HOST_NET = "10.0.2.0/24"  # qemu user-net: forwarded connections come from 10.0.2.2
NOT_HOST = "192.0.2.0/24"  # TEST-NET-1: never the host
SQUASH_ID = 1234
NOBODY = 65534
PROC_NFSD = Path("/proc/fs/nfsd")
MOUNTD_PORT = 20048  # scripts/zfsvm.sh forwards a host port here


def ask_host(name: str, checks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The host's libnfs clients run these checks against the forwarded NFS ports."""
    return ask_helper(name, checks, "nfs_ports")


@dataclass
class Lab:
    engine: NfsEngine
    dataset: str


def export(*networks: str, v3: bool = True, **options: Any) -> NfsState:
    """A state with the one media export, to the given networks (NFSv3 on: see above)."""
    return NfsState((NfsExportSpec(MEDIA, networks=networks, **options),), v3=v3)


def sh(*argv: str) -> str:
    """Run a guest command; its stdout."""
    return subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120).stdout


def daemon(*argv: str) -> subprocess.Popen[bytes]:
    """Start a daemon in the foreground as our child (stopped by pid at the module's end)."""
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def lab(
    engine: CliZfsEngine, module_pool: Callable[..., str], all_disks: list[str]
) -> Iterator[Lab]:
    """A pool and dataset (any user may write), the kernel server up, the panel's export."""
    module_pool(POOL, PoolLayout(type="stripe", groups=((all_disks[0],),)))
    engine.run(["zfs", "create", f"{POOL}/media"])
    os.chmod(MEDIA, 0o777)  # noqa: S103 - squashed users must be able to create files
    Path(MEDIA, "hello.txt").write_text("hello from the guest\n")
    nfs = NfsEngine(restart=())
    nfs.apply(export(HOST_NET))  # before nfsd starts: it reads the versions drop-in
    sh("modprobe", "nfsd")
    if not (PROC_NFSD / "threads").exists():
        sh("mount", "-t", "nfsd", "nfsd", str(PROC_NFSD))
    children = [daemon("rpcbind", "-f", "-w")]
    # nfsd and mountd register with rpcbind as they start: on a loaded host they have found it
    # not yet listening (rpc.nfsd: "writing fd to kernel failed: errno 111").
    assert wait_for(rpcbind_answers, timeout=60), "rpcbind did not answer within 60 s"
    children.append(daemon("rpc.mountd", "-F", "-p", str(MOUNTD_PORT)))
    start_nfsd()
    yield Lab(nfs, f"{POOL}/media")
    sh("rpc.nfsd", "0")
    nfs.apply(NfsState())
    for child in children:
        child.terminate()
        child.wait(timeout=30)


def rpcbind_answers() -> bool:
    """Whether rpcbind lists its programs (it is up and listening)."""
    done = subprocess.run(["rpcinfo", "-p", "127.0.0.1"], capture_output=True, check=False)
    return done.returncode == 0


def start_nfsd() -> None:
    """Start nfsd's threads; it reads the versions from nfs.conf (and its drop-ins) now."""
    sh("rpc.nfsd", "4")
    # No client can hold state from before: end the NFSv4 grace period at once (nfsdcld
    # does the same when it knows no client to wait for), or every OPEN waits it out.
    (PROC_NFSD / "v4_end_grace").write_text("Y")


def restart_nfsd() -> None:
    """What `systemctl restart nfs-server` does to nfsd: versions change only when stopped."""
    sh("rpc.nfsd", "0")
    start_nfsd()


def server_file(name: str) -> Path:
    """A file of the export, as the server sees it."""
    return Path(MEDIA, name)


def sha256(path: Path) -> str:
    """The file's SHA-256 on the server."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_server_offers_the_versions_of_the_panels_drop_in(lab: Lab) -> None:
    status = lab.engine.status()
    assert status.running
    assert status.threads > 0
    assert "4.2" in status.versions
    assert "3" in status.versions
    report = lab.engine.apply(export(HOST_NET, v3=False))
    assert report.config_changed
    assert "vers3=n" in lab.engine.nfs_conf.read_text()
    restart_nfsd()
    assert "3" not in lab.engine.status().versions
    assert "4" in lab.engine.status().versions
    lab.engine.apply(export(HOST_NET))
    restart_nfsd()
    assert "3" in lab.engine.status().versions


def test_the_export_is_live_with_the_rendered_options(lab: Lab) -> None:
    lab.engine.apply(export(HOST_NET))
    live = sh("exportfs", "-v")
    assert MEDIA in live
    assert "10.0.2.0/24" in live
    assert "root_squash" in live
    assert lab.engine.exports_file.read_text() == lab.engine.render(export(HOST_NET))


def test_a_host_client_lists_writes_and_reads_back_byte_identical(lab: Lab) -> None:
    lab.engine.apply(export(HOST_NET, map_mode="root", anon_uid=SQUASH_ID, anon_gid=SQUASH_ID))
    answers = ask_host(
        "nfs_rw",
        [
            {"id": "ls", "kind": "nfs_ls", "export": MEDIA, "expect": ["hello.txt"]},
            {"id": "rw", "kind": "nfs_write_read", "export": MEDIA, "name": "up.bin",
             "size": 3 * 1024 * 1024 + 17, "version": 3, "read_version": 4},
        ],
    )  # fmt: skip
    assert_all_ok(answers)
    written = server_file("up.bin")
    assert written.stat().st_size == 3 * 1024 * 1024 + 17
    assert sha256(written) == answers["rw"]["sha256"]
    # root on the client wrote it; maproot mapped root to the given ids
    assert (written.stat().st_uid, written.stat().st_gid) == (SQUASH_ID, SQUASH_ID)


def test_without_a_map_root_is_squashed_to_nobody(lab: Lab) -> None:
    lab.engine.apply(export(HOST_NET))
    answers = ask_host(
        "nfs_squash",
        [{"id": "rw", "kind": "nfs_write_read", "export": MEDIA, "name": "nobody.bin",
          "size": 65536, "version": 3}],
    )  # fmt: skip
    assert_all_ok(answers)
    written = server_file("nobody.bin")
    assert (written.stat().st_uid, written.stat().st_gid) == (NOBODY, NOBODY)


def test_a_network_not_allowed_is_refused(lab: Lab) -> None:
    lab.engine.apply(export(NOT_HOST))
    answers = ask_host(
        "nfs_refused",
        [
            {"id": "v4", "kind": "nfs_refused", "export": MEDIA, "name": "stranger.bin"},
            {"id": "v3", "kind": "nfs_refused", "export": MEDIA, "name": "stranger.bin",
             "version": 3},
        ],
    )  # fmt: skip
    assert_all_ok(answers)
    # v3 names the reason (mountd's answer); libnfs 4.0 prints none for NFSv4's refusal
    assert "MNT3ERR_ACCES" in answers["v3"]["output"]
    assert not server_file("stranger.bin").exists()


def test_a_read_only_export_lists_but_refuses_writes(lab: Lab) -> None:
    lab.engine.apply(export(HOST_NET, read_only=True))
    answers = ask_host(
        "nfs_ro",
        [
            {"id": "ls", "kind": "nfs_ls", "export": MEDIA, "expect": ["hello.txt"]},
            {"id": "write", "kind": "nfs_write_read", "export": MEDIA, "name": "ro.bin",
             "size": 4096, "version": 3},
        ],
    )  # fmt: skip
    assert answers["ls"]["ok"], answers["ls"]["output"]
    assert not answers["write"]["ok"], "a write to a read-only export succeeded"
    assert "NFS3ERR_ROFS" in answers["write"]["output"]
    assert not server_file("ro.bin").exists()


def test_an_export_exportfs_refuses_leaves_the_previous_one_live(lab: Lab) -> None:
    good = export(HOST_NET)
    lab.engine.apply(good)
    missing = NfsExportSpec(f"/{POOL}/missing", networks=(HOST_NET,))
    with pytest.raises(ExportsRejected, match=f"/{POOL}/missing"):
        lab.engine.apply(NfsState((*good.exports, missing)))
    assert lab.engine.exports_file.read_text() == lab.engine.render(good)
    live = sh("exportfs", "-v")
    assert MEDIA in live
    assert f"/{POOL}/missing" not in live

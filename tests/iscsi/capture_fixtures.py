"""Capture real tgtadm output into tests/iscsi/fixtures/.

Run by hand from the repository root: `.venv/bin/python -m tests.iscsi.capture_fixtures`.

It drives a private tgtd with raw tgtadm commands (not the engine under test) and real
initiators (qemu-io holding sessions open), so the parser tests read what tgt 1.0.85 prints.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from nasui.lib.net import free_loopback_port
from tests.iscsi.iscsi_clients import image_opts

FIXTURES = Path(__file__).parent / "fixtures"
T1 = "iqn.2024-01.org.nasui:disk1"
T3 = "iqn.2024-01.org.nasui:disk3"
CLIENT1 = "iqn.2024-01.org.client:one"
CLIENT2 = "iqn.2024-01.org.client:two"


def main() -> None:
    """Start tgtd, build a configuration step by step, save each show output."""
    work = Path(tempfile.mkdtemp(prefix="tgtcap-"))
    env = {**os.environ, "TGT_IPC_SOCKET": str(work / "sock")}
    port = free_loopback_port()
    portals = f"portal=127.0.0.1:{port},portal=[::1]:{port}"
    log = (work / "tgtd.log").open("wb")
    tgtd = subprocess.Popen(["tgtd", "-f", "-C", "0", "--iscsi", portals], env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip

    def adm(*args: str) -> str:
        out = subprocess.run(["tgtadm", "--lld", "iscsi", *args], env=env, capture_output=True,
                             text=True, timeout=10, check=True)  # fmt: skip
        return out.stdout

    def save(name: str, *args: str) -> None:
        (FIXTURES / name).write_text(adm(*args))

    try:
        ready = ["tgtadm", "--lld", "iscsi", "--mode", "system", "--op", "show"]
        for _ in range(100):
            if subprocess.run(ready, env=env, capture_output=True, check=False).returncode == 0:
                break
            time.sleep(0.05)
        FIXTURES.mkdir(exist_ok=True)
        save("target_show_empty.txt", "--mode", "target", "--op", "show")
        save("account_show_empty.txt", "--mode", "account", "--op", "show")
        save("system_show.txt", "--mode", "system", "--op", "show")
        save("portal_show.txt", "--mode", "portal", "--op", "show")
        for name, size in (("a.img", 64 << 20), ("b.img", 32 << 20), ("c odd:name.img", 16 << 20)):
            with (work / name).open("wb") as handle:
                handle.truncate(size)
        adm("--mode", "target", "--op", "new", "--tid", "1", "--targetname", T1)
        adm("--mode", "target", "--op", "new", "--tid", "3", "--targetname", T3)
        lun = ("--mode", "logicalunit", "--op", "new", "--bstype", "rdwr")
        adm(*lun, "--tid", "1", "--lun", "1", "-b", str(work / "a.img"), "--blocksize", "4096")
        adm(*lun, "--tid", "1", "--lun", "2", "-b", str(work / "b.img"), "--blocksize", "512")
        adm("--mode", "logicalunit", "--op", "update", "--tid", "1", "--lun", "2",
            "--params", "readonly=1,scsi_sn=SERIAL0002,thin_provisioning=1")  # fmt: skip
        adm(*lun, "--tid", "3", "--lun", "7", "-b", str(work / "c odd:name.img"),
            "--blocksize", "1024")  # fmt: skip
        adm("--mode", "target", "--op", "bind", "--tid", "1", "--initiator-name", CLIENT1)
        adm("--mode", "target", "--op", "bind", "--tid", "1", "--initiator-address", "10.0.0.0/8")
        adm("--mode", "target", "--op", "bind", "--tid", "3", "--initiator-address", "ALL")
        for user, secret in (("alice", "secretsecret12"), ("tgtout", "mutualsecret34"),
                             ("disco", "discosecret12")):  # fmt: skip
            adm("--mode", "account", "--op", "new", "--user", user, "--password", secret)
        adm("--mode", "account", "--op", "bind", "--tid", "1", "--user", "alice")
        adm("--mode", "account", "--op", "bind", "--tid", "1", "--user", "tgtout", "--outgoing")
        adm("--mode", "account", "--op", "bind", "--user", "disco")
        save("target_show.txt", "--mode", "target", "--op", "show")
        save("account_show.txt", "--mode", "account", "--op", "show")
        hold_sessions(port, adm)
    finally:
        subprocess.run(["tgtadm", "--lld", "iscsi", "--mode", "target", "--op", "delete",
                        "--force", "--tid", "1"], env=env, check=False)  # fmt: skip
        subprocess.run(["tgtadm", "--lld", "iscsi", "--mode", "target", "--op", "delete",
                        "--force", "--tid", "3"], env=env, check=False)  # fmt: skip
        subprocess.run(["tgtadm", "--lld", "iscsi", "--mode", "system", "--op", "delete"],
                       env=env, check=False)  # fmt: skip
        try:
            tgtd.wait(timeout=10)
        except subprocess.TimeoutExpired:
            tgtd.kill()
            tgtd.wait()
        shutil.rmtree(work, ignore_errors=True)


def hold_sessions(port: int, adm: object) -> None:
    """Keep two qemu-io sessions open (one over IPv6) while saving the show output."""
    assert callable(adm)
    one = image_opts(
        f"127.0.0.1:{port}", T1, 1, initiator=CLIENT1, user="alice", secret="secretsecret12"
    )
    two = image_opts(f"[::1]:{port}", T3, 7, initiator=CLIENT2)
    holders = [
        subprocess.Popen(
            ["qemu-io", "--image-opts", image, "-r", "-c", "read 0 4k", "-c", "sleep 4000"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for image in (one, two)
    ]
    try:
        time.sleep(2.0)
        (FIXTURES / "target_show_sessions.txt").write_text(adm("--mode", "target", "--op", "show"))
    finally:
        for proc in holders:
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()

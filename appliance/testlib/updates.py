"""Updates from the panel on the booted appliance: an update file copied onto the SMB share (as
a user would), applied through the API, and the restart the box makes by itself followed on its
console."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from appliance.testlib.config import REPO, SMB_PASSWORD, SMB_SHARE, SMB_USER, ResultDict
from appliance.testlib.panel import api, rows
from appliance.testlib.poll import poll
from appliance.testlib.smb import SMB_WAIT, smb_client
from appliance.testlib.vm import VM

CACHE = Path(
    os.environ.get("NASUI_APPLIANCE_CACHE", Path.home() / ".cache" / "nasui" / "appliance")
)
SIGNING_KEY = CACHE / "update-signing-key.pem"  # the build's (appliance/build.sh: update_key)
COPY_TIMEOUT = 900  # ~400 MiB through smbd under the emulator
RESTART_TIMEOUT = 900  # writing 1.5 GiB, the restart, a boot (two when it falls back)


def put_on_share(vm: VM, state: ResultDict, update: Path) -> str:
    """Copy `update` onto the family share as its user; its path on the box."""
    smb = smb_client(vm)
    # Right after a restart smbd may not answer yet (nasui-smb starts it after /health/).
    put = poll(
        lambda: smb.run(SMB_SHARE, f"put {update} {update.name}", user=SMB_USER,
                        password=SMB_PASSWORD, timeout=COPY_TIMEOUT),
        lambda result: result.ok,
        SMB_WAIT,
        step=5,
    )  # fmt: skip
    assert put.ok, put.output
    status, shares = api(vm, state).api("GET", "/api/sharing/smb/shares/")
    assert status == 200, shares
    share = next(row for row in rows(shares) if row["name"] == SMB_SHARE)
    return f"{share['path']}/{update.name}"  # the dataset's mountpoint


def apply(vm: VM, state: ResultDict, path: str, health_seconds: int) -> int:
    """Start the update and wait for its job (the slot written); the console's length then, from
    which the restart that follows is read."""
    client = api(vm, state)
    status, job = client.api(
        "POST", "/api/system/update/", {"path": path, "health_seconds": health_seconds}
    )
    assert status == 202, job
    done = client.wait_job(job, timeout=RESTART_TIMEOUT)
    assert done["status"] == "succeeded", done
    return len(vm.console.read_text(errors="replace"))


def wait_console_after(vm: VM, offset: int, text: str, timeout: float = RESTART_TIMEOUT) -> None:
    """Until `text` shows on the console after `offset` (bounded)."""
    found = poll(
        lambda: text in vm.console.read_text(errors="replace")[offset:], bool, timeout, step=5
    )
    assert found, f"the console never showed {text!r}:\n{vm.tail()}"


def wait_restarted(vm: VM, offset: int, release: str) -> float:
    """Until the box restarted into `release` and its panel answers; seconds it took."""
    started = time.monotonic()
    wait_console_after(vm, offset, f"nasui appliance {release}")
    assert poll(vm.health_ok, bool, 300, step=3), f"no /health/ after the restart:\n{vm.tail()}"
    return time.monotonic() - started


def broken_update(source_root: Path, workdir: Path, release: str) -> Path:
    """A signed update whose panel never starts (nasui-web's ExecStart replaced by /bin/false),
    made from a build's root file system with debugfs."""
    root = workdir / "broken-root.ext4"
    subprocess.run(["cp", "--sparse=always", str(source_root), str(root)], check=True)
    dropin = workdir / "broken.conf"
    dropin.write_text("[Service]\nExecStart=\nExecStart=/bin/false\n")
    version = workdir / "VERSION"
    version.write_text(f"{release}\n")
    commands = "\n".join([
        "mkdir /etc/systemd/system/nasui-web.service.d",
        f"write {dropin} /etc/systemd/system/nasui-web.service.d/broken.conf",
        "rm /opt/nasui/VERSION",
        f"write {version} /opt/nasui/VERSION",
    ])  # fmt: skip
    subprocess.run(["debugfs", "-w", "-f", "-", str(root)], input=commands, text=True,
                   capture_output=True, check=True)  # fmt: skip
    update = workdir / "nasui-update-broken.tar"
    python = REPO / ".venv" / "bin" / "python"
    tool = [str(python), "-m", "system.updates.engine.bundle", "make", str(SIGNING_KEY)]
    subprocess.run([*tool, release, str(root), str(update)], cwd=REPO, check=True,
                   capture_output=True)  # fmt: skip
    root.unlink()
    return update

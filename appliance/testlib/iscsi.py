"""The host's iSCSI clients (libiscsi tools, qemu-io) against the appliance's target."""

from __future__ import annotations

import subprocess

from appliance.testlib.config import CHAP_SECRET, CHAP_USER, INITIATOR, PATTERN, ResultDict
from appliance.testlib.poll import poll
from appliance.testlib.vm import VM


def iscsi(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """A host iSCSI client (bounded)."""
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def iscsi_url(vm: VM, state: ResultDict, secret: str = CHAP_SECRET) -> str:
    """libiscsi URL of the LUN with one-way CHAP."""
    return f"iscsi://{CHAP_USER}%{secret}@127.0.0.1:{vm.iscsi_port}/{state['iqn']}/{state['lun']}"


def qemu_io(vm: VM, state: ResultDict, command: str) -> subprocess.CompletedProcess[str]:
    """qemu's iSCSI driver: one qemu-io command on the LUN."""
    opts = [
        "driver=iscsi",
        "transport=tcp",
        f"portal=127.0.0.1:{vm.iscsi_port}",
        f"target={state['iqn']}",
        f"lun={state['lun']}",
        f"initiator-name={INITIATOR}",
        f"user={CHAP_USER}",
        f"password={CHAP_SECRET}",
    ]
    return iscsi(["qemu-io", "--image-opts", ",".join(opts), "-c", command])


def assert_reads_back(vm: VM, state: ResultDict) -> None:
    """After a boot, the host reads the pattern it wrote before through the target (bounded)."""
    # The iSCSI boot step applies the configuration once the zvols are there.
    read = poll(
        lambda: qemu_io(vm, state, f"read -P {PATTERN} 0 8M"), lambda r: r.returncode == 0, 120
    )
    assert read.returncode == 0, read.stdout + read.stderr
    assert "Pattern verification failed" not in read.stdout + read.stderr

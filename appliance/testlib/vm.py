"""The appliance under qemu: its disks, forwarded ports, serial console, boot and power-off."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.testlib.config import ARTIFACTS, BOOT_TIMEOUT, DISKS, FIRMWARE, IMAGE, REPORT_WAIT
from nasui.lib.net import free_loopback_port

NEW_ADDRESS = "10.0.2.16"  # a static address in slirp's network (DHCP gives 10.0.2.15)
TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE  # the appliance's certificate is self-signed


class VM:
    """One appliance VM: a qcow2 overlay over the raw image, blank disks, forwarded ports."""

    def __init__(
        self,
        workdir: Path,
        firmware: str = FIRMWARE,
        stick_bytes: int | None = None,
        image: Path = IMAGE,
        report_wait: float = REPORT_WAIT,
    ) -> None:
        self.workdir = workdir
        self.firmware = firmware
        self.https_port = free_loopback_port()
        self.iscsi_port = free_loopback_port()
        self.smb_port = free_loopback_port()
        self.nfs_port = free_loopback_port()  # the guest's 2049 (NFSv4 needs no other port)
        self.ssh_port = free_loopback_port()
        # The guest's 443 at NEW_ADDRESS (not DHCP's 10.0.2.15): a network change's new address.
        self.new_address_port = free_loopback_port()
        self.console = workdir / "console.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.boot_seconds = 0.0  # of the current boot, once /health/ answered
        self.launched = 0.0
        self.report_wait = report_wait  # seconds after /health/ to wait for the NASUI_BOOT line
        self.boot_line = ""  # this boot's NASUI_BOOT line, once print_boot_timeline found it
        # A sparse raw copy (not an overlay): appliance/upgrade.sh works on it like on a stick.
        self.system_disk = workdir / "nasui.img"
        self.image, self.stick_bytes = image, stick_bytes
        self.new_stick()
        for i in range(DISKS):
            with open(workdir / f"disk{i}.img", "wb") as disk:
                disk.truncate(2 << 30)
        if firmware == "uefi":
            shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", workdir / "vars.fd")

    def new_stick(self) -> None:
        """The image written onto a blank stick (the VM powered off): a dead stick replaced;
        the data disks stay as they are."""
        subprocess.run(["cp", "--sparse=always", str(self.image), str(self.system_disk)],
                       check=True)  # fmt: skip
        if self.stick_bytes:  # as if the image were written onto a bigger stick
            os.truncate(self.system_disk, self.stick_bytes)

    def argv(self) -> list[str]:
        """The qemu command line (TCG: the host's KVM does not work here)."""
        argv = ["qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-smp", "2", "-m", "2560"]
        # The system disk boots first (bootindex), the blank disks only hold the pool.
        argv += ["-drive", f"file={self.system_disk},format=raw,if=none,id=sys"]
        argv += ["-device", "virtio-blk-pci,drive=sys,bootindex=0"]
        for i in range(DISKS):
            argv += [
                "-drive",
                f"file={self.workdir / f'disk{i}.img'},format=raw,if=none,id=d{i},cache=unsafe",
                "-device",
                f"virtio-blk-pci,drive=d{i},serial=NASUIDISK{i}",
            ]
        fwd = f"hostfwd=tcp:127.0.0.1:{self.https_port}-:443"
        fwd += f",hostfwd=tcp:127.0.0.1:{self.iscsi_port}-:3260"
        fwd += f",hostfwd=tcp:127.0.0.1:{self.smb_port}-:445"
        fwd += f",hostfwd=tcp:127.0.0.1:{self.nfs_port}-:2049"
        fwd += f",hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22"
        fwd += f",hostfwd=tcp:127.0.0.1:{self.new_address_port}-{NEW_ADDRESS}:443"
        argv += ["-netdev", f"user,id=n0,{fwd}", "-device", "virtio-net-pci,netdev=n0"]
        argv += ["-device", "virtio-rng-pci", "-display", "none"]
        argv += [
            "-serial",
            f"file:{self.console}",
            "-monitor",
            f"unix:{self.monitor},server,nowait",
        ]
        if self.firmware == "uefi":
            argv += [
                "-drive",
                "if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd",
                "-drive",
                f"if=pflash,format=raw,unit=1,file={self.workdir / 'vars.fd'}",
            ]
        return argv

    @property
    def monitor(self) -> Path:
        """The qemu monitor's socket."""
        return self.workdir / "monitor.sock"

    def start(self) -> None:
        """Boot and wait (bounded) until the panel answers /health/ through the HTTPS port."""
        self.launch()
        self.wait_healthy()

    def launch(self) -> None:
        """Start qemu and return at once: the boot goes on while the caller does other things."""
        if self.console.exists():
            self.console.rename(self.workdir / f"console-{int(time.time())}.log")
        self.launched, self.boot_seconds = time.monotonic(), 0.0
        log = open(self.workdir / "qemu.log", "ab")  # noqa: SIM115 - lives as long as qemu
        self.proc = subprocess.Popen(self.argv(), stdin=subprocess.DEVNULL, stdout=log, stderr=log)

    def wait_healthy(self) -> None:
        """Wait (bounded, from the launch) until the panel answers /health/; once per boot."""
        assert self.proc is not None
        if self.boot_seconds:
            return
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"qemu exited during boot ({self.proc.returncode}):\n{self.tail()}")
            if time.monotonic() - self.launched > BOOT_TIMEOUT:
                pytest.fail(f"no /health/ within {BOOT_TIMEOUT:.0f}s:\n{self.tail()}")
            if self.health_ok():
                break
            time.sleep(1)
        self.boot_seconds = time.monotonic() - self.launched
        self.boot_line = ""
        self.print_boot_timeline()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The guest's CPUs stopped (qemu's monitor), then let go: an idle VM beside another's
        boot takes none of the host's two cores. Its network stack (in qemu) still accepts
        connections; the guest answers them once it runs again."""
        self.monitor_command("stop")
        try:
            yield
        finally:
            self.monitor_command("cont")

    def print_boot_timeline(self) -> None:
        """Print this boot's NASUI_BOOT line (nasui-boot-report: when each unit started and was
        up, in seconds since the kernel started) beside the host's figure."""
        limit = time.monotonic() + self.report_wait
        while time.monotonic() < limit:
            found = re.search(r"NASUI_BOOT .*", self.console.read_text(errors="replace"))
            if found:
                self.boot_line = found.group(0).strip()
                print(f"\n{self.boot_line}\n(/health/ from the host: {self.boot_seconds:.1f}s)")
                return
            time.sleep(1)
        print(f"\nno NASUI_BOOT line on the console within {self.report_wait:.0f} s of /health/")

    def health_ok(self, url: str | None = None) -> bool:
        """Whether /health/ answers 200 through nginx (at `url`, else the DHCP address)."""
        try:
            url = f"{url or self.url}/health/"
            with urllib.request.urlopen(url, timeout=5, context=TLS) as resp:  # noqa: S310 - https
                return bool(resp.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    @property
    def url(self) -> str:
        """The panel's address on the host."""
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def new_address_url(self) -> str:
        """The panel through the guest's NEW_ADDRESS, once a network change gives it that."""
        return f"https://127.0.0.1:{self.new_address_port}"

    def tail(self, lines: int = 40) -> str:
        """The end of the serial console log."""
        if not self.console.exists():
            return "(no console output)"
        text = self.console.read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def boot_consoles(self) -> list[str]:
        """The serial console of every boot of this VM so far, oldest first."""
        older = sorted(self.workdir.glob("console-*.log"), key=lambda p: p.stat().st_mtime)
        current = [self.console] if self.console.exists() else []
        return [log.read_text(errors="replace") for log in older + current]

    def wait_console(self, pattern: str, timeout: float) -> re.Match[str]:
        """Wait (bounded) for a line of the serial console to match."""
        limit = time.monotonic() + timeout
        while time.monotonic() < limit:
            text = self.console.read_text(errors="replace") if self.console.exists() else ""
            match = re.search(pattern, text)
            if match:
                return match
            time.sleep(1)
        pytest.fail(f"console never showed {pattern!r} in {timeout:.0f}s:\n{self.tail()}")

    def monitor_command(self, command: str) -> None:
        """One qemu monitor command."""
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(str(self.monitor))
            sock.sendall(command.encode() + b"\n")
            time.sleep(0.5)

    def shutdown(self, timeout: float = 120) -> float:
        """ACPI power button; waits for qemu to exit (killed after `timeout`). Returns seconds."""
        assert self.proc is not None
        started = time.monotonic()
        self.monitor_command("system_powerdown")
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"no clean power-off in {timeout:.0f}s:\n{self.tail()}")
        return time.monotonic() - started

    def running(self) -> bool:
        """Whether qemu has been started and has not exited."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """qemu is always stopped at the end."""
        if self.proc is not None and self.running():
            self.proc.kill()
            self.proc.wait(10)


@contextlib.contextmanager
def booted(
    firmware: str = FIRMWARE, stick_bytes: int | None = None, *, wait: bool = True
) -> Iterator[VM]:
    """A fresh appliance VM booted to /health/ (or only launched: `wait` False, the caller
    waits with wait_healthy); always stopped, its consoles kept as artifacts."""
    if not IMAGE.exists():
        pytest.fail(f"{IMAGE} is missing: run `make appliance` first")
    workdir = Path(tempfile.mkdtemp(prefix="nasui-appliance-"))
    machine = VM(workdir, firmware, stick_bytes)
    try:
        machine.launch()
        if wait:
            machine.wait_healthy()
            print(f"\nboot to /health/: {machine.boot_seconds:.1f}s ({firmware})")
        yield machine
    finally:
        machine.kill()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for log in workdir.glob("console*.log"):
            shutil.copy(log, ARTIFACTS / f"{firmware}-{log.name}")
        shutil.rmtree(workdir, ignore_errors=True)

"""End-to-end test of the appliance image: boot it in qemu and drive it from the host.

Run with `make test-appliance` (it builds the image first). Only the REST API, the login page and
real iSCSI clients are used; the guest is never entered. Environment (all optional):
NASUI_APPLIANCE_IMAGE (default var/appliance/nasui.img), NASUI_APPLIANCE_FIRMWARE (bios or uefi),
NASUI_APPLIANCE_BOOT_TIMEOUT (seconds until /health/ must answer, default 300).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import itertools
import json
import os
import re
import shutil
import socket
import ssl
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[1]
IMAGE = Path(os.environ.get("NASUI_APPLIANCE_IMAGE", REPO / "var/appliance/nasui.img"))
FIRMWARE = os.environ.get("NASUI_APPLIANCE_FIRMWARE", "bios")
BOOT_TIMEOUT = float(os.environ.get("NASUI_APPLIANCE_BOOT_TIMEOUT", "300"))
CHROMIUM = os.environ.get("NASUI_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts" / "appliance"
INITIATOR = "iqn.2026-11.org.nasui:appliance-test"
CHAP_USER = "appliance"
CHAP_SECRET = "Secret-12345"  # noqa: S105 - a test secret (12-16 characters)
PATTERN = "0xa5"
DISKS = 3
STICK_BYTES = 4 << 30  # the main VM's "USB stick": bigger than the image, so the data part grows
RELEASE = "upgrade-test"  # the release name of the root file system the upgrade test writes
ResultDict = dict[str, Any]
T = TypeVar("T")


def free_port() -> int:
    """A TCP port nobody listens on now (on the host's loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class VM:
    """One appliance VM: a qcow2 overlay over the raw image, blank disks, forwarded ports."""

    def __init__(
        self, workdir: Path, firmware: str = FIRMWARE, stick_bytes: int | None = None
    ) -> None:
        self.workdir = workdir
        self.firmware = firmware
        self.https_port = free_port()
        self.iscsi_port = free_port()
        self.console = workdir / "console.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.boot_seconds = 0.0
        # A sparse raw copy (not an overlay): appliance/upgrade.sh works on it like on a stick.
        self.system_disk = workdir / "nasui.img"
        subprocess.run(["cp", "--sparse=always", str(IMAGE), str(self.system_disk)], check=True)
        if stick_bytes:  # as if the image were written onto a bigger stick
            os.truncate(self.system_disk, stick_bytes)
        for i in range(DISKS):
            with open(workdir / f"disk{i}.img", "wb") as disk:
                disk.truncate(2 << 30)
        if firmware == "uefi":
            shutil.copy("/usr/share/OVMF/OVMF_VARS_4M.fd", workdir / "vars.fd")

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
        if self.console.exists():
            self.console.rename(self.workdir / f"console-{int(time.time())}.log")
        started = time.monotonic()
        log = open(self.workdir / "qemu.log", "ab")  # noqa: SIM115 - lives as long as qemu
        self.proc = subprocess.Popen(self.argv(), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"qemu exited during boot ({self.proc.returncode}):\n{self.tail()}")
            if time.monotonic() - started > BOOT_TIMEOUT:
                pytest.fail(f"no /health/ within {BOOT_TIMEOUT:.0f}s:\n{self.tail()}")
            if self.health_ok():
                break
            time.sleep(1)
        self.boot_seconds = time.monotonic() - started

    def health_ok(self) -> bool:
        """Whether /health/ answers 200 through nginx."""
        try:
            url = f"{self.url}/health/"
            with urllib.request.urlopen(url, timeout=5, context=TLS) as resp:  # noqa: S310 - https
                return bool(resp.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    @property
    def url(self) -> str:
        """The panel's address on the host."""
        return f"https://127.0.0.1:{self.https_port}"

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


TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE  # the appliance's certificate is self-signed


class Client:
    """HTTP client for the panel: a session (cookies) for /login/, a token for the API."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=TLS), urllib.request.HTTPCookieProcessor(self.jar)
        )
        self.token = ""

    def request(
        self,
        method: str,
        path: str,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        """Status and body; HTTP errors are returned, not raised."""
        all_headers = {"Referer": self.base + path, **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        url = self.base + path  # always https://127.0.0.1:PORT
        req = urllib.request.Request(url, data=data, method=method, headers=all_headers)  # noqa: S310
        try:
            with self.opener.open(req, timeout=120) as resp:
                return int(resp.status), resp.read().decode()
        except urllib.error.HTTPError as exc:
            return int(exc.code), exc.read().decode(errors="replace")

    def csrf(self) -> str:
        """The CSRF cookie's value."""
        return next(c.value for c in self.jar if c.name == "csrftoken" and c.value is not None)

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        """POST a form as the browser would (CSRF token in the body)."""
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf(), **fields}).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.base}
        return self.request("POST", path, body, headers)

    def api(self, method: str, path: str, payload: ResultDict | None = None) -> tuple[int, Any]:
        """A REST call with the token; the body decoded from JSON."""
        data = json.dumps(payload).encode() if payload is not None else None
        status, body = self.request(method, path, data, {"Content-Type": "application/json"})
        try:
            return status, json.loads(body) if body else None
        except json.JSONDecodeError:
            return status, body

    def wait_job(self, job: ResultDict, timeout: float = 300) -> ResultDict:
        """Poll /api/jobs/<id>/ until the job ends (bounded)."""
        limit = time.monotonic() + timeout
        while time.monotonic() < limit:
            status, body = self.api("GET", f"/api/jobs/{job['id']}/")
            assert status == 200, body
            if body.get("status") in ("succeeded", "failed"):
                return dict(body)
            time.sleep(2)
        pytest.fail(f"job {job['id']} did not finish in {timeout:.0f}s")


@contextlib.contextmanager
def booted(firmware: str = FIRMWARE, stick_bytes: int | None = None) -> Iterator[VM]:
    """A fresh appliance VM booted to /health/; always stopped, its consoles kept as artifacts."""
    if not IMAGE.exists():
        pytest.fail(f"{IMAGE} is missing: run `make appliance` first")
    workdir = Path(tempfile.mkdtemp(prefix="nasui-appliance-"))
    machine = VM(workdir, firmware, stick_bytes)
    try:
        machine.start()
        print(f"\nboot to /health/: {machine.boot_seconds:.1f}s ({firmware})")
        yield machine
    finally:
        machine.kill()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for log in workdir.glob("console*.log"):
            shutil.copy(log, ARTIFACTS / f"{firmware}-{log.name}")
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def vm() -> Iterator[VM]:
    """The booted appliance (one per module; the reboot test restarts it in place)."""
    with booted(stick_bytes=STICK_BYTES) as machine:
        yield machine


@pytest.fixture(scope="module")
def state() -> ResultDict:
    """What one step hands to the next (admin password, token, pool, target)."""
    return {}


def login(vm: VM, state: ResultDict) -> Client:
    """A client logged in as admin with the password the console showed."""
    client = Client(vm.url)
    status, _ = client.request("GET", "/login/")
    assert status == 200
    status, body = client.form("/login/", {"username": "admin", "password": state["password"]})
    assert status == 200, body[-500:]
    assert 'name="password"' not in body, "login refused"
    return client


def test_boot_shows_url_and_password(vm: VM, state: ResultDict) -> None:
    """The console shows the URL and the first-boot password; the panel answers /health/."""
    match = vm.wait_console(r"admin password: (\S+)", 60)
    state["password"] = match.group(1)
    vm.wait_console(r"Open the panel:\s+https://", 120)
    assert vm.boot_seconds < BOOT_TIMEOUT


def test_login_and_token(vm: VM, state: ResultDict) -> None:
    """Log in through /login/ (CSRF), create an API token on /settings/tokens/."""
    client = login(vm, state)
    status, page = client.request("GET", "/settings/")
    assert status == 200, "not logged in"
    assert 'name="password"' not in page, "not logged in"
    status, page = client.form("/settings/tokens/", {"name": "appliance test"})
    assert status == 200, page[-500:]
    token = re.search(r'id="new-token-key">([^<]+)<', page)
    assert token, "no token on the page"
    state["token"] = token.group(1).strip()


def api(vm: VM, state: ResultDict) -> Client:
    """A client using the token only (no session)."""
    client = Client(vm.url)
    client.token = state["token"]
    return client


def test_raidz1_pool(vm: VM, state: ResultDict) -> None:
    """Create a raidz1 pool on the three blank disks through the API (a job)."""
    client = api(vm, state)
    status, disks = client.api("GET", "/api/storage/disks/")
    assert status == 200, disks
    rows = disks["results"] if isinstance(disks, dict) else disks
    blank = [d["name"] for d in rows if str(d.get("serial", "")).startswith("NASUIDISK")]
    assert len(blank) == DISKS, rows
    payload = {"name": "tank", "layout": "raidz1", "disks": blank}
    status, job = client.api("POST", "/api/storage/pools/", payload)
    assert status in (200, 201, 202), job
    done = client.wait_job(job)
    assert done["status"] == "succeeded", done
    status, pool = client.api("GET", "/api/storage/pools/tank/")
    assert status == 200, pool
    assert pool["health"] == "ONLINE", pool


def test_zvol_and_iscsi_target(vm: VM, state: ResultDict) -> None:
    """A zvol with lz4, then the wizard: a second zvol shared as a target with CHAP."""
    client = api(vm, state)
    zvol = {"name": "tank/vol1", "size": "256M", "compression": "lz4", "volblocksize": 16384}
    status, body = client.api("POST", "/api/storage/zvols/", zvol)
    assert status == 201, body
    wizard = {
        "name": "lun1",
        "dataset": "tank",
        "size": "512M",
        "volblocksize": 16384,
        "compression": "lz4",
        "initiator": INITIATOR,
        "chap_user": CHAP_USER,
        "chap_secret": CHAP_SECRET,
    }
    status, body = client.api("POST", "/api/sharing/iscsi/wizard/", wizard)
    assert status == 201, body
    state["iqn"] = body["iqn"]
    state["lun"] = int(body["luns"][0]["lun_id"])
    status, service = client.api("GET", "/api/sharing/iscsi/service/")
    assert status == 200, service
    assert service["engine"] == "lio", service
    assert service["running"], service
    status, zvol_row = client.api("GET", "/api/storage/zvols/tank%2Flun1/")
    print(f"\ntarget {state['iqn']} lun {state['lun']}; zvol: {zvol_row}")


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


def poll(probe: Callable[[], T], done: Callable[[T], bool], timeout: float, step: float = 3) -> T:
    """Call `probe` until `done` holds for its answer (bounded); the last answer either way."""
    limit = time.monotonic() + timeout
    answer = probe()
    while not done(answer) and time.monotonic() < limit:
        time.sleep(step)
        answer = probe()
    return answer


def assert_reads_back(vm: VM, state: ResultDict) -> None:
    """After a boot, the host reads the pattern it wrote before through the target (bounded)."""
    # The iSCSI boot step applies the configuration once the zvols are there.
    read = poll(
        lambda: qemu_io(vm, state, f"read -P {PATTERN} 0 8M"), lambda r: r.returncode == 0, 120
    )
    assert read.returncode == 0, read.stdout + read.stderr
    assert "Pattern verification failed" not in read.stdout + read.stderr


def test_iscsi_write_and_read(vm: VM, state: ResultDict) -> None:
    """The host writes 8 MiB through the target and reads them back; a wrong secret is refused."""
    cap = iscsi(["iscsi-readcapacity16", "-i", INITIATOR, iscsi_url(vm, state)])
    assert cap.returncode == 0, cap.stdout + cap.stderr
    inquiry = iscsi(["iscsi-inq", "-i", INITIATOR, iscsi_url(vm, state)])
    assert "LIO-ORG" in inquiry.stdout, inquiry.stdout + inquiry.stderr  # the kernel's target
    wrong = iscsi(["iscsi-readcapacity16", "-i", INITIATOR, iscsi_url(vm, state, "Wrong-123456")])
    assert wrong.returncode != 0
    wrote = qemu_io(vm, state, f"write -P {PATTERN} 0 8M")
    assert wrote.returncode == 0, wrote.stdout + wrote.stderr
    assert "wrote" in wrote.stdout, wrote.stdout + wrote.stderr
    read = qemu_io(vm, state, f"read -P {PATTERN} 0 8M")
    assert read.returncode == 0, read.stdout + read.stderr
    assert "read" in read.stdout, read.stdout + read.stderr
    assert "Pattern verification failed" not in read.stdout + read.stderr


# Metrics the dashboard charts on real ZFS: CPU, RAM with the ARC, the ARC itself, the pool.
SERIES = ("cpu.user", "mem.arc", "arc.size", "pool.tank.allocated", "pool.tank.compressratio")


def test_pool_ratios(vm: VM, state: ResultDict) -> None:
    """8 MiB of one byte through the lz4 zvol compress (ratio > 2); nothing is deduplicated."""
    client = api(vm, state)

    def zvol_row() -> Any:
        status, zvol = client.api("GET", "/api/storage/zvols/tank%2Flun1/")
        assert status == 200, zvol
        return zvol

    # The ratio shows once ZFS syncs the transaction group.
    zvol = poll(zvol_row, lambda z: z["compressratio"] > 2.0, 90)
    assert zvol["compressratio"] > 2.0, zvol
    status, pool = client.api("GET", "/api/storage/pools/tank/")
    assert status == 200, pool
    assert pool["compressratio"] > 1.5, pool
    assert pool["dedupratio"] == 1.0, pool
    print(f"\nzvol compressratio {zvol['compressratio']}, pool {pool['compressratio']}, "
          f"dedup {pool['dedupratio']}")  # fmt: skip


def test_monitoring_series(vm: VM, state: ResultDict) -> None:
    """The newest sample is fresh and has the ARC and the pool; each series is sampled steadily."""
    client = api(vm, state)
    status, current = client.api("GET", "/api/monitoring/current/")
    assert status == 200, current
    assert current["age_seconds"] < 30, current["age_seconds"]
    assert current["health"].get("tank") == "ONLINE", current["health"]
    assert "arc" not in current["unavailable"], current["unavailable"]
    assert current["values"]["arc.c_max"] > 0, current["values"]

    def fetch() -> dict[str, Any]:  # metric -> [[Unix time, value or None], ...]
        status, body = client.api(
            "GET", f"/api/monitoring/series/?metric={','.join(SERIES)}&range=10m"
        )
        assert status == 200, body
        return {row["metric"]: row["points"] for row in body["series"]}

    def ratio_sampled(series: dict[str, Any]) -> bool:  # the young pool's ratio, a few times
        ratios = [v for _, v in series["pool.tank.compressratio"] if v is not None]
        return len(ratios) >= 3 and ratios[-1] > 1.5

    series = poll(fetch, ratio_sampled, 60)
    print(f"\npoints in 10 min: { {n: len(series[n]) for n in SERIES} }")
    assert series["pool.tank.compressratio"][-1][1] > 1.5, series["pool.tank.compressratio"][-3:]
    first: dict[str, float] = {}
    for name in SERIES:
        # The test gets here within a minute of boot and seconds after the pool's creation:
        # require a steady sampler (the 2 s period, slack for TCG), not a long history.
        times = [p[0] for p in series[name] if p[1] is not None]
        assert len(times) >= 3, (name, series[name])
        assert times == sorted(times), name
        assert times[-1] > current["t"] - 60, (name, times[-1], current["t"])
        gaps = sorted(b - a for a, b in itertools.pairwise(times))
        assert gaps[len(gaps) // 2] < 6, (name, gaps)
        first[name] = times[0]
    # CPU was sampled before the pool existed; the pool's series starts with the pool.
    assert first["cpu.user"] < first["pool.tank.allocated"], first


GRAPHS_DRAWN = """keys => keys.every(key => {
  const canvas = document.querySelector(`[data-testid=chart-${key}]`);
  return canvas && Number(canvas.dataset.points) >= 3;
})"""


def test_browser_dashboard(vm: VM, state: ResultDict) -> None:
    """Chromium logs in through the forwarded port and sees the dashboard graphs."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
        )
        try:
            page = browser.new_context(ignore_https_errors=True).new_page()
            page.goto(f"{vm.url}/login/", timeout=60_000)
            page.fill("input[name=username]", "admin")
            page.fill("input[name=password]", state["password"])
            page.click("button[type=submit]")
            page.wait_for_url(f"{vm.url}/", timeout=60_000)
            # The graphs have drawn points (each canvas says how many), not only empty axes.
            page.wait_for_function(GRAPHS_DRAWN, arg=["cpu", "memory", "arc_hits"], timeout=60_000)
            assert page.get_by_test_id("chart-unavailable").count() == 0  # real ZFS: all there
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.get_by_test_id("chart-cpu").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "dashboard.png"))
        finally:
            browser.close()


def test_memory_report(vm: VM, state: ResultDict) -> None:
    """The console report of the panel's resident memory (web, worker + beat, Redis; nginx)."""
    match = vm.wait_console(r"NASUI_REPORT .*", 240)
    print(f"\n{match.group(0)}")
    total = re.search(r"rss_total=(\d+)MiB", match.group(0))
    assert total, match.group(0)
    assert re.search(r"panel_rss=\d+MiB panel_pss=\d+MiB", match.group(0)), match.group(0)
    assert "inactive" not in match.group(0), match.group(0)
    assert "failed" not in match.group(0), match.group(0)
    state["rss"] = int(total.group(1))


def test_reboot_keeps_pool_target_and_data(vm: VM, state: ResultDict) -> None:
    """Power off (ACPI), boot again: the pool is imported, the target and the data are back."""
    seconds = vm.shutdown()
    print(f"\nclean power-off: {seconds:.1f}s")
    vm.start()
    print(f"second boot to /health/: {vm.boot_seconds:.1f}s")
    client = api(vm, state)
    status, pool = poll(
        lambda: client.api("GET", "/api/storage/pools/tank/"), lambda r: r[0] == 200, 120
    )
    assert status == 200, pool
    assert pool["health"] == "ONLINE", pool
    assert_reads_back(vm, state)
    assert "admin password" in vm.console.read_text(errors="replace")


def test_data_partition_fills_the_stick(vm: VM) -> None:
    """First boot grew the data partition and its file system to the stick's end (seen offline)."""
    first, *later = vm.boot_consoles()
    match = re.search(r"data partition grown to (\d+) MiB", first)
    assert match, "the first boot did not grow the data partition"
    print(f"\n{match.group(0)}")
    assert later, "the reboot test did not boot the VM again"
    assert all("growing it" not in text for text in later), "a later boot grew it again"
    vm.shutdown()
    start, sectors, last_usable = gpt_partition(vm.system_disk, 4)
    assert last_usable == STICK_BYTES // 512 - 34  # the backup GPT moved to the stick's end
    assert start + sectors - 1 == last_usable
    assert ext4_bytes(vm.system_disk, start * 512) > sectors * 512 - (4 << 20)


def gpt_partition(disk: Path, number: int) -> tuple[int, int, int]:
    """(first sector, sectors, the GPT's last usable sector) of one partition of a disk image."""
    with open(disk, "rb") as f:
        f.seek(512)
        header = f.read(92)
        assert header[:8] == b"EFI PART", "no GPT"
        (last_usable,) = struct.unpack_from("<Q", header, 48)
        entries_lba, _, entry_size = struct.unpack_from("<QII", header, 72)
        f.seek(entries_lba * 512 + (number - 1) * entry_size)
        first, last = struct.unpack_from("<QQ", f.read(entry_size), 32)
    return first, last - first + 1, last_usable


def ext4_bytes(disk: Path, offset: int) -> int:
    """The size an ext4 file system at `offset` of a disk image says it has (its superblock)."""
    with open(disk, "rb") as f:
        f.seek(offset + 1024)
        superblock = f.read(1024)
    assert struct.unpack_from("<H", superblock, 56)[0] == 0xEF53, "no ext4 superblock"
    (blocks_lo,) = struct.unpack_from("<I", superblock, 4)
    (blocks_hi,) = struct.unpack_from("<I", superblock, 0x150)  # zero without the 64bit feature
    return int((blocks_hi << 32) | blocks_lo) * (1024 << superblock[24])


def test_upgrade_keeps_the_data_partition(vm: VM, state: ResultDict) -> None:
    """A new release's root written by appliance/upgrade.sh: login, pool, target, data stay."""
    next_out = REPO / "var" / "appliance-next"
    env = {**os.environ, "NASUI_APPLIANCE_OUT": str(next_out), "NASUI_APPLIANCE_RELEASE": RELEASE}
    build = run_script(["bash", "appliance/build.sh"], env)
    assert build.returncode == 0, build.stderr[-3000:]
    if vm.running():
        vm.shutdown()
    upgrade = run_script(
        ["bash", "appliance/upgrade.sh", str(vm.system_disk), str(next_out / "nasui-root.ext4")]
    )
    assert upgrade.returncode == 0, upgrade.stderr[-3000:]
    vm.start()
    print(f"\nboot after the upgrade to /health/: {vm.boot_seconds:.1f}s")
    vm.wait_console(rf"nasui appliance {RELEASE}", 120)  # the new root's banner
    client = api(vm, state)  # the token made before the upgrade: the database was kept
    status, pool = client.api("GET", "/api/storage/pools/tank/")
    assert status == 200, pool
    assert_reads_back(vm, state)


def test_upgrade_refuses_what_is_not_a_nasui_stick(tmp_path: Path) -> None:
    """upgrade.sh checks the partition table before writing anything."""
    blank = tmp_path / "blank.img"
    blank.write_bytes(b"\0" * (4 << 20))
    root = REPO / "var" / "appliance" / "nasui-root.ext4"
    refused = run_script(["bash", "appliance/upgrade.sh", str(blank), str(root)])
    assert refused.returncode != 0
    assert "not a nasui stick" in refused.stderr, refused.stderr
    assert blank.read_bytes() == b"\0" * (4 << 20)


def run_script(
    argv: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """One of the appliance's scripts, from the checkout (bounded)."""
    return subprocess.run(
        argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def test_the_other_firmware_boots_the_same_image(vm: VM) -> None:
    """BIOS and UEFI: a fresh copy of the image boots with the other firmware to the panel."""
    if vm.running():
        vm.shutdown()  # one TCG guest at a time on 2 cores
    other = "uefi" if FIRMWARE == "bios" else "bios"
    with booted(other) as machine:
        machine.wait_console(r"Open the panel:\s+https://", 120)
        assert machine.wait_console(r"admin password: (\S+)", 60)
        # The image fills this disk: nothing to grow, and the GPT is left as it was.
        assert "growing it" not in machine.console.read_text(errors="replace")

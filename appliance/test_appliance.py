"""End-to-end test of the appliance image: boot it in qemu and drive it from the host.

Run with `make test-appliance` (it builds the image first). Only the REST API, the login page and
real iSCSI, SMB and NFS clients are used; the guest is never entered. Environment (all optional):
NASUI_APPLIANCE_IMAGE (default var/appliance/nasui.img), NASUI_APPLIANCE_FIRMWARE (bios or uefi),
NASUI_APPLIANCE_BOOT_TIMEOUT (seconds until /health/ must answer, default 300).
Helpers live in appliance/testlib/, the shared VM fixtures in appliance/conftest.py.
"""

from __future__ import annotations

import itertools
import os
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from appliance.testlib import (
    config_backup,
    encryption,
    network,
    ntp,
    replication,
    roles,
    updates,
    ups,
)
from appliance.testlib.certificate import assert_served
from appliance.testlib.config import (
    ARTIFACTS,
    BOOT_TIMEOUT,
    CHAP_SECRET,
    CHAP_USER,
    CHROMIUM,
    INITIATOR,
    NFS_NETWORK,
    NFS_PATH,
    PATTERN,
    RELEASE,
    REPO,
    REPORT_WAIT,
    SMB_FILE,
    SMB_PASSWORD,
    SMB_SHARE,
    SMB_USER,
    SMB_WRONG_PASSWORD,
    STICK_BYTES,
    ZONE,
    ResultDict,
)
from appliance.testlib.first import first_login, make_pool
from appliance.testlib.image import ext4_bytes, gpt_partition, run_script
from appliance.testlib.iscsi import assert_reads_back, iscsi, iscsi_url, qemu_io
from appliance.testlib.nfs import assert_nfs_reads_back
from appliance.testlib.panel import api, login, rows
from appliance.testlib.poll import poll
from appliance.testlib.smb import assert_owned_by, assert_smb_reads_back, fetch, smb_client
from appliance.testlib.snapshots import DATASET, EVERY_MINUTE, made_since, task_snapshots
from appliance.testlib.ssh import assert_ssh_reaches_the_pool, pair
from appliance.testlib.vm import NEW_ADDRESS, VM
from system.tests.certs_helpers import issued


def test_boot_shows_url_and_password(vm: VM, state: ResultDict) -> None:
    """The console shows the URL and the first-boot password; the panel answers /health/."""
    match = vm.wait_console(r"admin password: (\S+)", 60)
    state["password"] = match.group(1)
    vm.wait_console(r"Open the panel:\s+https://", 120)
    assert vm.boot_seconds < BOOT_TIMEOUT


def test_login_and_token(vm: VM, state: ResultDict) -> None:
    """Log in through /login/ (CSRF) with the console's password, which the panel asks to
    replace at once; then create an API token on /settings/tokens/."""
    first_login(vm, state)


def test_web_certificate_uploaded_checked_and_made_again(vm: VM, state: ResultDict) -> None:
    """nginx serves the first boot's self-signed certificate; one issued for the box's name is
    checked, put in service and presented; a key that is not its own is refused and changes
    nothing; a new self-signed certificate replaces it, and the console shows its fingerprint."""
    client = api(vm, state)
    status, first = client.api("GET", "/api/system/certificate/")
    assert status == 200, first
    assert first["names"] == ["nasui", "nasui.local"], first
    assert_served(vm, first["fingerprint"])
    chain, key = issued(["nasui.home.example"])
    pair = {"certificate": chain.decode(), "key": key.decode()}
    status, taken = client.api("PUT", "/api/system/certificate/", pair)
    assert status == 200, taken
    assert_served(vm, taken["fingerprint"])
    _, other_key = issued(["nasui.home.example"])
    status, refused = client.api(
        "PUT", "/api/system/certificate/", {**pair, "key": other_key.decode()}
    )
    assert status == 400, refused
    assert "does not belong" in refused["fields"]["key"][0], refused
    assert_served(vm, taken["fingerprint"])
    status, made = client.api("POST", "/api/system/certificate/self-signed/")
    assert status == 200, made
    assert made["self_signed"], made
    assert_served(vm, made["fingerprint"])
    vm.wait_console(re.escape(made["fingerprint"]), 60)  # the console shows the one served


def test_time_zone_and_ntp_servers_from_the_panel(
    vm: VM, state: ResultDict, ntp_server: None
) -> None:
    """The zone chosen in the panel is systemd's (timedatectl), the time shown in it; a zone the
    tz database does not know is refused and changes nothing; timesyncd follows the server set
    (the host's SNTP answer) and the panel shows the clock's offset from it. (The upgrade test
    checks that a new root keeps the zone.)"""
    client = api(vm, state)
    status, first = client.api("GET", "/api/system/clock/")
    assert status == 200, first
    assert first["applied"], first
    assert first["system_time_zone"] in ("UTC", "Etc/UTC"), first
    status, body = client.api(
        "PUT", "/api/system/clock/", {"time_zone": ZONE, "ntp_servers": ["10.0.2.2"]}
    )
    assert status == 200, body
    assert body["system_time_zone"] == ZONE, body
    assert body["now"].endswith(("+01:00", "+02:00")), body
    status, refused = client.api("PUT", "/api/system/clock/", {"time_zone": "Mars/Olympus"})
    assert status == 400, refused
    status, after = client.api("GET", "/api/system/clock/")
    assert (after["time_zone"], after["system_time_zone"]) == (ZONE, ZONE), after
    synced = poll(
        lambda: client.api("GET", "/api/system/clock/")[1],
        lambda body: body["synchronized"] and body["offset_ms"] is not None,
        180,
    )
    assert synced["synchronized"], (synced, f"SNTP answers: {len(ntp.ANSWERED)}")
    print(f"\nclock offset from the host's SNTP server: {synced['offset_ms']} ms")
    assert synced["server"] == "10.0.2.2", synced
    assert abs(synced["offset_ms"]) < 2000, synced  # the emulated clock, set by the host's


def test_network_change_confirmed_through_its_new_address_or_undone(
    vm: VM, state: ResultDict
) -> None:
    """A static address from the panel is in force at once and kept once confirmed through it
    (a confirmation through another address is refused); a change nobody confirms is undone
    after 60 s by itself; DHCP again, confirmed through the address DHCP gives."""
    name = network.dhcp_interface(vm, state)
    moved = network.change(api(vm, state), "nasui", [network.static(name)])
    assert moved["token"], moved
    new = network.through_new_address(vm, state)
    network.wait_answers(vm, vm.new_address_url)
    network.wait_silent(vm, vm.url)  # DHCP's address is gone
    status, wrong = new.api("POST", "/api/system/network/confirm/", {"token": "not-it"})
    assert status == 400, wrong
    status, kept = new.api("POST", "/api/system/network/confirm/", {"token": moved["token"]})
    assert status == 200, kept
    assert kept["pending"] is None, kept
    assert f"{NEW_ADDRESS}/24" in next(i for i in kept["present"] if i["name"] == name)["addresses"]
    back = network.change(new, "nasui", [{"name": name, "dhcp": True}])
    network.wait_answers(vm, vm.url)  # DHCP's address again, until the change is undone:
    network.wait_silent(vm, vm.url, timeout=60 + network.MOVE_WAIT)
    network.wait_answers(vm, vm.new_address_url)
    status, undone = new.api("GET", "/api/system/network/")
    assert undone["last_undone"]["reason"] == "It was not confirmed within 60 s.", undone
    assert undone["interfaces"] == [network.static(name) | {"gateway6": "", "mtu": None}], undone
    back = network.change(new, "nasui", [{"name": name, "dhcp": True}])
    network.wait_answers(vm, vm.url)
    status, kept = api(vm, state).api(
        "POST", "/api/system/network/confirm/", {"token": back["token"]}
    )
    assert status == 200, kept
    assert kept["interfaces"][0]["dhcp"], kept


def test_raidz1_pool(vm: VM, state: ResultDict) -> None:
    """Create a raidz1 pool on the three blank disks through the API (a job)."""
    make_pool(vm, state, "tank")


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


def test_pairing_authorizes_a_key_for_ssh(vm: VM, state: ResultDict) -> None:
    """Another nasui pairs with this one through the API (an administrator's password): the key
    is authorized for root over SSH, and the host key the panel names is the one sshd offers."""
    pair(vm, state)
    assert_ssh_reaches_the_pool(vm, state)


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
            # The login checks a PBKDF2 of a million rounds: 25-40 s of emulated CPU here, more
            # than the 30 s a click waits for its navigation by default.
            page.click("button[type=submit]", no_wait_after=True)
            page.wait_for_url(f"{vm.url}/", timeout=120_000)
            # The graphs have drawn points (each canvas says how many), not only empty axes.
            page.wait_for_function(GRAPHS_DRAWN, arg=["cpu", "memory", "arc_hits"], timeout=60_000)
            assert page.get_by_test_id("chart-unavailable").count() == 0  # real ZFS: all there
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.get_by_test_id("chart-cpu").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "dashboard.png"))
        finally:
            browser.close()


def test_smb_share_write_and_read(vm: VM, state: ResultDict) -> None:
    """A dataset shared by the wizard to a new user: smbclient writes a file, reads it back."""
    client = api(vm, state)
    status, dataset = client.api("POST", "/api/storage/datasets/", {"name": "tank/family"})
    assert status == 201, dataset
    wizard = {"existing": "tank/family", "new_username": SMB_USER, "new_password": SMB_PASSWORD}
    status, share = client.api("POST", "/api/sharing/smb/wizard/", wizard)
    assert status == 201, share
    assert share["name"] == SMB_SHARE, share
    assert share["dataset"] == "tank/family", share
    status, users = client.api("GET", "/api/sharing/users/")
    assert status == 200, users
    found = rows(users)
    user = next(row for row in found if row["username"] == SMB_USER)
    assert share["users"] == [user["id"]], (share, user)
    state["smb_uid"] = int(user["uid"])
    data = os.urandom(1 << 20)
    state["smb_data"] = data
    smb = smb_client(vm)
    (smb.workdir / SMB_FILE).write_bytes(data)
    # smbd (root, port 445 in the guest) reloads with the new share and account.
    put = poll(
        lambda: smb.run(SMB_SHARE, f"put {SMB_FILE}", user=SMB_USER, password=SMB_PASSWORD),
        lambda r: r.ok,
        60,
    )
    assert put.ok, put.output
    got, copy = fetch(vm)
    assert got.ok, got.output
    assert copy.read_bytes() == data
    listed = smb.run(SMB_SHARE, "ls", user=SMB_USER, password=SMB_PASSWORD)
    assert listed.ok, listed.output
    row = rf"{re.escape(SMB_FILE)}\s+[A-Z]+\s+{len(data)}\b"  # name, DOS attributes, size
    assert re.search(row, listed.output), listed.output
    assert_owned_by(vm, state["smb_uid"])  # the user's uid, not root's: a real account
    # She overwrites her own file and writes into a folder she just made (issue 27).
    again = f"put {SMB_FILE}; mkdir inner; cd inner; put {SMB_FILE}"
    written = smb.run(SMB_SHARE, again, user=SMB_USER, password=SMB_PASSWORD)
    assert written.ok, written.output
    assert "NT_STATUS" not in written.output, written.output
    assert_owned_by(vm, state["smb_uid"], f"inner\\{SMB_FILE}")
    wrong, _ = fetch(vm, password=SMB_WRONG_PASSWORD)
    assert "NT_STATUS_LOGON_FAILURE" in wrong.output, wrong.output


def test_nfs_export_reads_the_smb_file(vm: VM, state: ResultDict) -> None:
    """The SMB share's dataset exported over NFS to the host's network: the kernel's nfsd serves
    it on port 2049, and libnfs (NFSv4) reads the file SMB wrote, byte-identical, as its owner."""
    client = api(vm, state)
    status, users = client.api("GET", "/api/sharing/users/")
    assert status == 200, users
    found = rows(users)
    user = next(row for row in found if row["username"] == SMB_USER)
    status, group = client.api("GET", f"/api/sharing/groups/{user['group']}/")
    assert status == 200, group
    state["smb_gid"] = int(group["gid"])
    payload = {"path": NFS_PATH, "networks": [NFS_NETWORK], "comment": "appliance test"}
    status, export = client.api("POST", "/api/sharing/nfs/shares/", payload)  # applied at once
    assert status == 201, export
    assert export["dataset"] == "tank/family", export
    assert export["networks"] == [NFS_NETWORK], export
    assert_nfs_reads_back(vm, state, timeout=120)


def test_a_periodic_snapshot_task_runs(vm: VM, state: ResultDict, other: VM) -> None:
    """A task taking a snapshot of the shared dataset every minute, made through the API: beat
    (a thread of the worker) runs it within its first minutes. (The second appliance boots
    meanwhile: asking for it launches it.)"""
    task = {"dataset": DATASET, **EVERY_MINUTE, "lifetime_value": 1, "lifetime_unit": "day"}
    status, made = api(vm, state).api("POST", "/api/storage/snapshot-tasks/", task)
    assert status == 201, made
    state["snapshot_task"] = made["id"]
    started = datetime.now(UTC) - timedelta(minutes=1)
    first = made_since(vm, state, started, timeout=180)
    assert first, task_snapshots(vm, state)
    assert first[0]["name"].startswith(f"{DATASET}@auto-"), first


def test_memory_report(vm: VM, state: ResultDict) -> None:
    """The console report of the panel's resident memory (web, worker + beat, Redis; nginx)."""
    match = vm.wait_console(r"NASUI_REPORT .*", 240)
    print(f"\n{match.group(0)}")
    total = re.search(r"rss_total=(\d+)MiB", match.group(0))
    assert total, match.group(0)
    assert re.search(r"panel_rss=\d+MiB panel_pss=\d+MiB", match.group(0)), match.group(0)
    assert "failed" not in match.group(0), match.group(0)
    for unit in ("nasui-web", "nasui-worker", "redis-server", "nasui-iscsi", "nasui-smb", "nginx"):
        assert f"{unit}=active" in match.group(0), (unit, match.group(0))
    # The kernel NFS server runs once there is an export: the report (150 s after boot) may come
    # before the test made the first one (the first login's password change takes a minute).
    assert re.search(r"nfs-server=(active|inactive):", match.group(0)), match.group(0)
    state["rss"] = int(total.group(1))


def test_boot_timeline(vm: VM) -> None:
    """The console's NASUI_BOOT line (nasui-boot-report once the boot's steps are done, and again
    in the report after 150 s): when each unit on the way to the panel started and was up, since
    the kernel started."""
    # The iSCSI step is the last to finish (it starts once the web is ready).
    line = vm.wait_console(r"NASUI_BOOT .*nasui-iscsi=[\d.]+\.\.[\d.]+.*", REPORT_WAIT).group(0)
    for unit in ("nasui-setup", "nasui-web", "nasui-worker", "nginx"):
        assert re.search(rf"{unit}=[\d.]+\.\.[\d.]+", line), (unit, line)

    def boot_lines() -> list[str]:
        return re.findall(r"NASUI_BOOT .*", vm.console.read_text(errors="replace"))

    # at boot, and in the report after 150 s (printed just after its NASUI_REPORT line)
    lines = poll(boot_lines, lambda found: len(found) >= 2, 60, step=1)
    assert len(lines) >= 2, lines
    print(f"\n{line.strip()}")
    # After it, the kernel modules loaded and the slowest units (systemd-analyze blame).
    blame = vm.wait_console(r"NASUI_BLAME .*", 60).group(0).strip()
    assert re.search(r"modules=\d+ \| \S+=\d", blame), blame
    print(blame)


def test_the_other_firmware_boots_the_same_image(other: VM, other_state: ResultDict) -> None:
    """BIOS and UEFI: a fresh copy of the image boots with the other firmware to the panel (the
    backup box of the replication tests that follow)."""
    other.wait_healthy()
    print(f"\nboot to /health/: {other.boot_seconds:.1f}s ({other.firmware}, launched earlier)")
    other.wait_console(r"Open the panel:\s+https://", 120)
    other_state["password"] = other.wait_console(r"admin password: (\S+)", 60).group(1)
    # The image fills this disk: nothing to grow, and the GPT is left as it was.
    assert "growing it" not in other.console.read_text(errors="replace")


def test_replication_to_a_second_appliance(
    vm: VM, state: ResultDict, other: VM, other_state: ResultDict
) -> None:
    """The backup box gets its owner's password, a token and a pool; this box pairs with it
    through the API, and a snapshot task of the photos (a dataset in the SMB share) every
    minute is pushed there over SSH after each run."""
    first_login(other, other_state)
    make_pool(other, other_state, "backup")
    connection = replication.pair(vm, state, other, other_state)
    state["photos"] = replication.write_photos(vm, state)
    began = datetime.now(UTC) - timedelta(minutes=1)
    replication.start_replicating(vm, state, connection)
    run = replication.sent_since(vm, state, began, timeout=300)
    print(f"\nfirst replication: {run['sent_bytes']} bytes, {run['arrived']}")
    assert run["sent_bytes"] > len(state["photos"]) // 2, run  # the photo went (compressed)
    arrived = replication.copies(other, other_state)
    assert {f"{replication.COPY}@{name}" for name in run["arrived"]} <= set(arrived), arrived


def test_a_destroyed_dataset_comes_back_from_the_second_appliance(
    vm: VM, state: ResultDict
) -> None:
    """The photos destroyed here (the task's hold released, as asked) are pulled back from the
    backup box under their own name and read over SMB byte-identical; then the task goes on
    from the restored snapshots (after the reboot: an increment, not the whole)."""
    replication.pause_snapshots(vm, state, paused=True)
    replication.destroy_photos(vm, state)
    replication.restore_in_place(vm, state)
    assert replication.read_photo(vm) == state["photos"]
    replication.pause_snapshots(vm, state, paused=False)  # the reboot test sees the next runs


def test_reboot_keeps_pool_target_and_data(vm: VM, state: ResultDict, other: VM) -> None:
    """Power off (ACPI), boot again: the static address confirmed before holds, and once DHCP
    is back the pool, the target, the SMB user, the NFS export and the data are back."""
    name = network.dhcp_interface(vm, state)
    moved = network.change(api(vm, state), "nasui", [network.static(name)])
    new = network.through_new_address(vm, state)
    network.wait_answers(vm, vm.new_address_url)
    status, kept = new.api("POST", "/api/system/network/confirm/", {"token": moved["token"]})
    assert status == 200, kept
    assert kept["pending"] is None, kept
    encryption.make_roots(new)  # one root opened at boot, one by its passphrase (new address)
    state["reader_token"] = roles.make_reader(new)  # a read-only panel user, before the boot
    powered_off = datetime.now(UTC)
    seconds = vm.shutdown()
    print(f"\nclean power-off: {seconds:.1f}s")
    with other.paused():  # the backup box waits (a run to it waits too) while this one boots
        vm.launch()
        network.wait_answers(vm, vm.new_address_url, BOOT_TIMEOUT)  # the static address held
        status, shown = new.api("GET", "/api/system/network/")
        assert shown["interfaces"][0]["addresses"] == [f"{NEW_ADDRESS}/24"], shown
        back = network.change(new, "nasui", [{"name": name, "dhcp": True}])
        network.wait_answers(vm, vm.url)
        status, kept = api(vm, state).api(
            "POST", "/api/system/network/confirm/", {"token": back["token"]}
        )
        assert status == 200, kept
        vm.wait_healthy()
    print(f"second boot to /health/ (and back to DHCP): {vm.boot_seconds:.1f}s")
    client = api(vm, state)
    status, pool = poll(
        lambda: client.api("GET", "/api/storage/pools/tank/"), lambda r: r[0] == 200, 120
    )
    assert status == 200, pool
    assert pool["health"] == "ONLINE", pool
    assert_reads_back(vm, state)
    assert_smb_reads_back(vm, state)
    assert_nfs_reads_back(vm, state)  # nfs-server exported the panel's file again at boot
    # The admin chose a password of their own: the console stops showing the first one.
    assert "admin password" not in vm.console.read_text(errors="replace")
    # The task configured before the reboot keeps running after it.
    assert made_since(vm, state, powered_off, timeout=180), task_snapshots(vm, state)
    assert_ssh_reaches_the_pool(vm, state)  # the same host key, the key still authorized
    # The replication task and its connection too: a run after the boot sends to the other box,
    # an increment on the snapshots the restore brought back.
    run = replication.sent_since(vm, state, powered_off, timeout=240)
    assert run["sent_bytes"] < len(state["photos"]) // 2, run
    encryption.check_after_boot(client)
    roles.check_reader(client, state["reader_token"])


def test_an_update_from_the_panel_keeps_the_data_partition(
    vm: VM, state: ResultDict, other: VM
) -> None:
    """A new release's signed update file, copied onto the SMB share and applied from the
    panel: written into slot B, booted once, kept once its panel answered; login, pool, target,
    SMB, NFS, SSH, time zone and replication stay; the release before it waits in slot A."""
    next_out = REPO / "var" / "appliance-next"
    env = {**os.environ, "NASUI_APPLIANCE_OUT": str(next_out), "NASUI_APPLIANCE_RELEASE": RELEASE}
    build = run_script(["bash", "appliance/build.sh"], env)
    assert build.returncode == 0, build.stderr[-3000:]
    status, before = api(vm, state).api("GET", "/api/system/update/")
    assert status == 200, before
    assert (before["running"], before["good"]) == ("A", "A"), before
    state["first_release"] = before["release"]
    path = updates.put_on_share(vm, state, next_out / "nasui-update.tar")
    powered_off = datetime.now(UTC)
    with other.paused():
        offset = updates.apply(vm, state, path, health_seconds=900)
        seconds = updates.wait_restarted(vm, offset, RELEASE)
    print(f"\nupdate restart to /health/: {seconds:.1f}s")
    updates.wait_console_after(vm, offset, f"slot B ({RELEASE}): kept", 300)
    client = api(vm, state)  # the token made before the update: the database was kept
    status, after = client.api("GET", "/api/system/update/")
    assert (after["release"], after["running"], after["good"]) == (RELEASE, "B", "B"), after
    assert after["last"]["kept"], after
    assert after["other_release"] == before["release"], after
    assert after["can_roll_back"], after
    status, pool = client.api("GET", "/api/storage/pools/tank/")
    assert status == 200, pool
    assert_reads_back(vm, state)
    # The new root has a fresh /etc/passwd: the SMB account is made again from the data partition.
    assert_smb_reads_back(vm, state)
    # ... and no exports file: nasui-smb's first check writes it again from the database.
    assert_nfs_reads_back(vm, state)
    # A new root, the same SSH host key and authorized keys (the data partition's).
    assert_ssh_reaches_the_pool(vm, state)
    # ... and the time zone chosen in the panel (nasui-setup links it again).
    status, time_now = client.api("GET", "/api/system/clock/")
    assert time_now["system_time_zone"] == ZONE, time_now
    # The replication task and its connection (its key, its pinned host keys) work on.
    replication.sent_since(vm, state, powered_off, timeout=240)
    # The kept key is on the data partition, so the new release unlocks it at boot too.
    encryption.check_after_boot(client)
    roles.check_reader(client, state["reader_token"])  # the user and her role, in the kept db
    state["update_root"] = str(next_out / "nasui-root.ext4")


def test_roll_back_returns_to_the_release_before(vm: VM, state: ResultDict, other: VM) -> None:
    """*Roll back* boots the release in the other slot (the one before the update), on the same
    probation, and keeps it once its panel answers; the data is there."""
    client = api(vm, state)
    first = state["first_release"]
    offset = len(vm.console.read_text(errors="replace"))
    with other.paused():
        status, body = client.api("POST", "/api/system/update/roll-back/")
        assert status == 202, body
        seconds = updates.wait_restarted(vm, offset, first)
    print(f"\nroll-back restart to /health/: {seconds:.1f}s")
    updates.wait_console_after(vm, offset, f"slot A ({first}): kept", 300)
    status, after = client.api("GET", "/api/system/update/")
    assert (after["release"], after["running"], after["good"]) == (first, "A", "A"), after
    assert (after["other_release"], after["can_roll_back"]) == (RELEASE, True), after
    assert_reads_back(vm, state)


def test_a_release_whose_panel_never_answers_falls_back(
    vm: VM, state: ResultDict, other: VM, tmp_path: Path
) -> None:
    """An update whose panel never starts is tried once: its slot gives up when its time is
    out, the box restarts into the release before it by itself, and the panel says why."""
    update = updates.broken_update(Path(state["update_root"]), tmp_path, "broken")
    path = updates.put_on_share(vm, state, update)
    with other.paused():
        offset = updates.apply(vm, state, path, health_seconds=120)
        updates.wait_console_after(vm, offset, "slot B (broken): failed")
        after_failure = len(vm.console.read_text(errors="replace"))
        seconds = updates.wait_restarted(vm, after_failure, state["first_release"])
    print(f"\nfall-back to /health/: {seconds:.1f}s")
    status, after = api(vm, state).api("GET", "/api/system/update/")
    assert status == 200, after
    first = state["first_release"]
    assert (after["release"], after["running"], after["good"]) == (first, "A", "A"), after
    assert not after["last"]["kept"], after
    assert "did not answer within 120 s" in after["last"]["reason"], after
    assert not after["can_roll_back"], after  # slot B holds the release that failed
    assert_reads_back(vm, state)


def test_data_partition_grew_once(vm: VM) -> None:
    """The first boot grew the data partition and its file system to the stick's end; no later
    boot (reboot, update, roll-back, fall-back) grew either again. (The restore test checks the
    sizes offline, once the box is off.)"""
    first, *later = vm.boot_consoles()
    match = re.search(r"data partition grown to (\d+) MiB", first)
    assert match, "the first boot did not grow the data partition"
    print(f"\n{match.group(0)}")
    assert later, "the reboot test did not boot the VM again"
    assert all("growing it" not in text for text in later), "a later boot grew it again"
    # Nor its file system: the size check once read every file system over 2 GiB as 2 GiB (mawk's
    # printf %d), so each boot ran resize2fs again.
    assert all("data partition grown" not in text for text in later), "a later boot resized it"


def assert_data_partition_fills_the_stick(vm: VM) -> None:
    """Seen offline: the data partition and its file system end at the stick's end."""
    start, sectors, last_usable = gpt_partition(vm.system_disk, 5)
    assert last_usable == STICK_BYTES // 512 - 34  # the backup GPT moved to the stick's end
    assert start + sectors - 1 == last_usable
    assert ext4_bytes(vm.system_disk, start * 512) > sectors * 512 - (4 << 20)


def test_a_config_backup_rebuilds_the_box_on_a_blank_stick(
    vm: VM, state: ResultDict, other: VM
) -> None:
    """The stick dies: its config backup, downloaded before, restores the box on a blank one
    with the same data disks, from the first login (no password chosen first). A wrong passphrase
    and a cut-short archive are refused first and change nothing; after the restart the admin's
    own token works, the initiator logs in with the same CHAP secret, the SMB user reads her
    file, the snapshot task runs, the SSH host key is the one pinned, and the replication task
    reaches the backup box with its own key."""
    archive = config_backup.download(vm, state)
    # The power fails first: the UPS (NUT's dummy-ups) goes on battery (the alert rises), then
    # low: the panel stops sharing, syncs, exports the pool and powers the box off by itself
    seconds = ups.power_fails(vm, state, api(vm, state))
    print(f"\nUPS low battery to power-off: {seconds:.1f}s")
    ups.assert_shut_down_cleanly(vm)  # its record, on the old stick
    assert_data_partition_fills_the_stick(vm)  # the old stick, before it is replaced
    vm.new_stick()
    with other.paused():
        vm.start()
    blank = login(vm, {"password": vm.wait_console(r"admin password: (\S+)", 60).group(1)})
    config_backup.assert_refused(blank, archive, "Wrong passphrase", config_backup.WRONG)
    config_backup.assert_refused(blank, archive[: len(archive) // 2], "cut short")
    config_backup.assert_shown(blank, archive, "tank")
    config_backup.confirm(blank)
    restarted = datetime.now(UTC)
    vm.shutdown()
    with other.paused():
        vm.start()  # the restore is applied before the panel starts
    status, pool = api(vm, state).api("GET", "/api/storage/pools/tank/")  # the old token
    assert status == 200, pool
    status, time_now = api(vm, state).api("GET", "/api/system/clock/")
    assert time_now["system_time_zone"] == ZONE, time_now  # the clock's files came back too
    assert_reads_back(vm, state)  # the same target, LUN and CHAP secret
    assert_smb_reads_back(vm, state)
    ups.assert_written_reads_back(vm, state)  # the pool, exported at low battery, imported
    assert made_since(vm, state, restarted, timeout=180), task_snapshots(vm, state)
    assert_ssh_reaches_the_pool(vm, state)  # the box's own SSH host key came back
    replication.sent_since(vm, state, restarted, timeout=240)  # and the connection's key
    roles.check_reader(api(vm, state), state["reader_token"])  # the panel's users and roles


def test_upgrade_refuses_what_is_not_a_nasui_stick(tmp_path: Path) -> None:
    """upgrade.sh checks the partition table before writing anything."""
    blank = tmp_path / "blank.img"
    blank.write_bytes(b"\0" * (4 << 20))
    root = REPO / "var" / "appliance" / "nasui-root.ext4"
    refused = run_script(["bash", "appliance/upgrade.sh", str(blank), str(root)])
    assert refused.returncode != 0
    assert "not a nasui stick" in refused.stderr, refused.stderr
    assert blank.read_bytes() == b"\0" * (4 << 20)

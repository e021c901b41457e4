"""Replication between two appliances: the second one (booted with the other firmware) is the
backup box. This one pairs with it through the API, then a periodic snapshot task of a dataset
inside the SMB share is pushed there over SSH after each of its runs.

Both VMs are on qemu's user network: this one reaches the other's forwarded ports on the host
through 10.0.2.2, so the pairing names the other's forwarded SSH port (a router's port forward,
as the panel offers) instead of the 22 its panel names.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from appliance.testlib.config import SMB_PASSWORD, SMB_SHARE, SMB_USER, ResultDict
from appliance.testlib.panel import Client, api, rows
from appliance.testlib.poll import poll
from appliance.testlib.smb import smb_client
from appliance.testlib.snapshots import EVERY_MINUTE
from appliance.testlib.vm import VM

HOST_FROM_GUEST = "10.0.2.2"  # qemu user networking: the host's loopback, seen from a guest
PHOTOS = "tank/family/photos"  # a dataset inside the SMB share's (its folder "photos")
COPY = "backup/photos"  # where the backup box keeps the copy
PHOTO = "holiday.bin"


def pair(vm: VM, state: ResultDict, other: VM, other_state: ResultDict) -> int:
    """Pair this panel with the other one through the API; the new connection's id."""
    body = {"name": "backup-box", "address": f"https://{HOST_FROM_GUEST}:{other.https_port}",
            "username": "admin", "password": other_state["password"],
            "ssh_port": other.ssh_port}  # fmt: skip
    status, connection = api(vm, state).api("POST", "/api/replication/connections/pair/", body)
    assert status == 201, connection
    assert (connection["host"], connection["port"]) == (HOST_FROM_GUEST, other.ssh_port)
    assert connection["host_key_fingerprints"], connection
    return int(connection["id"])


def write_photos(vm: VM, state: ResultDict) -> bytes:
    """The photos dataset, given to the share's user, and a file she writes into it over SMB."""
    client = api(vm, state)
    status, made = client.api("POST", "/api/storage/datasets/", {"name": PHOTOS})
    assert status == 201, made
    status, users = client.api("GET", "/api/sharing/users/")
    assert status == 200, users
    found = rows(users)
    user = next(row for row in found if row["username"] == SMB_USER)
    owner = {"dataset": PHOTOS, "owner": user["id"], "group": user["group"], "mode": "770"}
    status, body = client.api("PUT", "/api/sharing/permissions/", owner)
    assert status == 200, body
    data = os.urandom(3 << 20)
    smb = smb_client(vm)
    (smb.workdir / PHOTO).write_bytes(data)
    put = smb.run(SMB_SHARE, f"cd photos; put {PHOTO}", user=SMB_USER, password=SMB_PASSWORD)
    assert put.ok, put.output
    assert "NT_STATUS" not in put.output, put.output
    return data


def read_photo(vm: VM) -> bytes:
    """The photo as the share's user reads it over SMB now."""
    smb = smb_client(vm)
    copy = smb.workdir / "holiday-fetched.bin"
    copy.unlink(missing_ok=True)
    got = smb.run(SMB_SHARE, f"cd photos; get {PHOTO} {copy.name}", user=SMB_USER,
                  password=SMB_PASSWORD)  # fmt: skip
    assert got.ok, got.output
    return copy.read_bytes()


def start_replicating(vm: VM, state: ResultDict, connection: int) -> None:
    """A snapshot task of the photos every minute, pushed to the backup box after each run."""
    client = api(vm, state)
    task = {"dataset": PHOTOS, **EVERY_MINUTE, "lifetime_value": 1, "lifetime_unit": "day"}
    status, made = client.api("POST", "/api/storage/snapshot-tasks/", task)
    assert status == 201, made
    state["photos_task"] = made["id"]
    replication = {"name": "photos-offsite", "direction": "push", "connection": connection,
                   "source": PHOTOS, "target": COPY, "snapshot_task": made["id"],
                   "trigger": "after_task", "keep_value": 6, "keep_unit": "month"}  # fmt: skip
    status, made = client.api("POST", "/api/replication/tasks/", replication)
    assert status == 201, made
    state["replication"] = made["id"]


def runs(vm: VM, state: ResultDict) -> list[dict[str, Any]]:
    """The replication task's runs, newest first."""
    status, body = api(vm, state).api("GET", f"/api/replication/tasks/{state['replication']}/runs/")
    assert status == 200, body
    return rows(body)


def sent_since(vm: VM, state: ResultDict, since: datetime, timeout: float) -> dict[str, Any]:
    """Wait (bounded) for a replication run started after `since` that sent snapshots."""

    def newest() -> list[dict[str, Any]]:
        return [run for run in runs(vm, state) if run["kind"] == "replicate"
                and datetime.fromisoformat(run["started_at"]) > since]  # fmt: skip

    found = poll(newest, lambda rows: any(run["result"] == "sent" for run in rows), timeout, 5)
    sent = [run for run in found if run["result"] == "sent"]
    assert sent, found
    return sent[0]


def copies(other: VM, other_state: ResultDict) -> list[str]:
    """The snapshots of the copy on the backup box, as its API lists them."""
    status, body = api(other, other_state).api("GET", f"/api/storage/snapshots/?dataset={COPY}")
    assert status == 200, body
    found = rows(body)
    return [row["name"] for row in found]


def pause_snapshots(vm: VM, state: ResultDict, *, paused: bool) -> None:
    """Stop (or start again) the photos' snapshot task, and so the replication after it."""
    path = f"/api/storage/snapshot-tasks/{state['photos_task']}/"
    status, body = api(vm, state).api("PATCH", path, {"enabled": not paused})
    assert status == 200, body
    if paused:
        # A snapshot the beat took at this minute's start may still start a run: past the next
        # minute's start nothing does, and the last run ends before the dataset is touched.
        time.sleep(70 - datetime.now(UTC).second)
        idle = poll(lambda: runs(vm, state), lambda rows: rows[0]["result"] != "running", 180)
        assert idle[0]["result"] != "running", idle[0]


def destroy_photos(vm: VM, state: ResultDict) -> None:
    """Destroy the photos with their snapshots, releasing the task's hold on its base as asked."""
    path = f"/api/storage/datasets/{quote(PHOTOS, '')}/"
    query = f"confirm={quote(PHOTOS)}&recursive=true&release_holds=true"
    status, body = api(vm, state).api("DELETE", f"{path}?{query}")
    assert status == 204, body


def restore_in_place(vm: VM, state: ResultDict) -> None:
    """Pull the copy back under the original's name (a job)."""
    client: Client = api(vm, state)
    path = f"/api/replication/tasks/{state['replication']}/restore/"
    status, job = client.api("POST", path, {"into": PHOTOS})
    assert status == 202, job
    done = client.wait_job(job, timeout=600)
    assert done["status"] == "succeeded", done

"""The whole iSCSI flow through the panel's API, served by a real tgtd to real initiators."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from sharing import runtime
from sharing.tests.clients import Login, capacity, discover, qemu_io
from storage.engine import get_engine

pytestmark = [pytest.mark.iscsi, pytest.mark.django_db]
JSON = "application/json"
PC = "iqn.2026-01.test.nasui:pc"
STRANGER = "iqn.2026-01.test.nasui:stranger"
SECRET = "chap-secret-01"
PEER_SECRET = "peer-secret-02"
BASE = "iqn.2026-11.local.nasui"


def _post(client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/{path}", body, content_type=JSON)
    assert response.status_code in (200, 201), (path, response.json())
    return response.json()


@pytest.fixture
def shared(admin_client, tank, target_service) -> dict[str, Any]:
    """A 64 MiB zvol shared with CHAP to one initiator, all made through the REST API."""
    api = admin_client
    assert (
        api.put(
            "/api/sharing/iscsi/settings/",
            {"basename": BASE, "port": target_service},
            content_type=JSON,
        ).status_code
        == 200
    )
    _post(api, "storage/zvols/", {"name": "tank/disk", "size": "64M", "volblocksize": 4096})
    portal = _post(api, "sharing/iscsi/portals/", {"addresses": ["127.0.0.1"]})
    group = _post(api, "sharing/iscsi/initiator-groups/", {"initiators": [PC]})
    chap = _post(api, "sharing/iscsi/auth-groups/", {"tag": 1, "user": "pc", "secret": SECRET})
    target = _post(
        api,
        "sharing/iscsi/targets/",
        {
            "name": "disk",
            "groups": [
                {
                    "portal": portal["id"],
                    "initiator_group": group["id"],
                    "auth_method": "chap",
                    "auth_group": chap["id"],
                }
            ],
        },
    )
    extent = _post(
        api, "sharing/iscsi/extents/", {"name": "disk", "zvol": "tank/disk", "blocksize": 4096}
    )
    mapping = _post(
        api, "sharing/iscsi/associations/", {"target": target["id"], "extent": extent["id"]}
    )
    return {
        "target": target,
        "mapping": mapping,
        "portal": portal,
        "login": Login(target_service, PC, "pc", SECRET),
    }


def test_discovery_lists_the_target(shared):
    found = discover(shared["login"])
    assert found.returncode == 0, found.stderr
    assert f"{BASE}:disk" in found.stdout


def test_the_lun_reports_the_zvols_size_and_block_size(shared):
    assert shared["mapping"]["lun_id"] == 1
    result = capacity(shared["login"], f"{BASE}:disk", 1)
    assert result.returncode == 0, result.stderr
    assert "LOGICAL BLOCK LENGTH IN BYTES:4096" in result.stdout
    assert "Total size:67108864" in result.stdout


def test_written_data_reads_back_and_lands_in_the_zvol(shared):
    login, iqn = shared["login"], f"{BASE}:disk"
    wrote = qemu_io(login, iqn, 1, "write -P 0xa5 1M 1M")
    assert wrote.returncode == 0, wrote.stdout + wrote.stderr
    read = qemu_io(login, iqn, 1, "read -P 0xa5 1M 1M")
    assert read.returncode == 0, read.stdout + read.stderr
    assert "Pattern verification failed" not in read.stdout
    backing = get_engine().zvol_path("tank/disk")  # type: ignore[attr-defined]
    with open(backing, "rb") as zvol:
        zvol.seek(1024**2)
        assert zvol.read(1024**2) == b"\xa5" * 1024**2


@pytest.mark.parametrize(
    ("login", "refusal"),
    [
        (lambda port: Login(port, PC, "pc", "wrong-secret-99"), "Authentication failure"),
        (lambda port: Login(port, PC), "Authentication failure"),
        (lambda port: Login(port, STRANGER, "pc", SECRET), "Target not found"),
    ],
    ids=["wrong-secret", "no-secret", "foreign-initiator"],
)
def test_wrong_credentials_and_foreign_initiators_are_refused(
    shared, target_service, login, refusal
):
    result = capacity(login(target_service), f"{BASE}:disk", 1)
    assert result.returncode != 0
    assert refusal in result.stdout + result.stderr


def test_mutual_chap_checks_the_targets_secret(admin_client, shared, target_service, tank):
    api = admin_client
    _post(api, "storage/zvols/", {"name": "tank/mutual", "size": "16M", "volblocksize": 4096})
    chap = _post(
        api,
        "sharing/iscsi/auth-groups/",
        {"tag": 2, "user": "pc2", "secret": SECRET, "peer_user": "nas", "peer_secret": PEER_SECRET},
    )
    target = _post(
        api,
        "sharing/iscsi/targets/",
        {
            "name": "mutual",
            "groups": [
                {
                    "portal": shared["portal"]["id"],
                    "auth_method": "mutual",
                    "auth_group": chap["id"],
                }
            ],
        },
    )
    extent = _post(api, "sharing/iscsi/extents/", {"name": "mutual", "zvol": "tank/mutual"})
    _post(api, "sharing/iscsi/associations/", {"target": target["id"], "extent": extent["id"]})
    iqn = f"{BASE}:mutual"
    good = Login(target_service, PC, "pc2", SECRET, "nas", PEER_SECRET)
    assert capacity(good, iqn, 1).returncode == 0
    bad = Login(target_service, PC, "pc2", SECRET, "nas", "not-the-peer-1")
    refused = capacity(bad, iqn, 1)
    assert refused.returncode != 0
    assert "CHAP" in refused.stdout + refused.stderr


def test_removing_the_association_removes_the_lun(admin_client, shared):
    response = admin_client.delete(f"/api/sharing/iscsi/associations/{shared['mapping']['id']}/")
    assert response.status_code == 204
    result = capacity(shared["login"], f"{BASE}:disk", 1)
    assert result.returncode != 0


def test_a_restarted_target_gets_the_same_configuration_back(shared):
    pid = int((runtime.engine().run_dir / "tgtd.pid").read_text())  # type: ignore[attr-defined]
    os.kill(pid, signal.SIGKILL)
    assert not runtime.engine().is_running()
    report = runtime.supervise_once()
    assert report is not None
    assert report.changed
    result = capacity(shared["login"], f"{BASE}:disk", 1)
    assert result.returncode == 0, result.stderr


def test_a_stopped_service_stays_stopped(shared):
    runtime.control("stop")
    assert runtime.supervise_once() is None
    assert not runtime.engine().is_running()
    runtime.control("start")
    assert capacity(shared["login"], f"{BASE}:disk", 1).returncode == 0


def test_the_boot_step_starts_the_target_and_applies_once(shared):
    from django.core.management import call_command

    runtime.engine().stop()
    assert capacity(shared["login"], f"{BASE}:disk", 1).returncode != 0
    call_command("iscsi_service", "--once", "--wait", "0")
    assert runtime.engine().is_running()  # left running: the boot step does not stop it
    result = capacity(shared["login"], f"{BASE}:disk", 1)
    assert result.returncode == 0, result.stderr

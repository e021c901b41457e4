"""The whole iSCSI flow through the panel's API, served by a real tgtd to real initiators."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from sharing.iscsi import runtime
from sharing.iscsi.engine.errors import EngineFailure
from sharing.iscsi.runtime import IscsiRuntime
from storage.engine import get_engine
from tests.iscsi.iscsi_clients import Result, discover, qemu_io, read_capacity, url

pytestmark = [pytest.mark.iscsi, pytest.mark.django_db]
JSON = "application/json"
PC = "iqn.2026-01.test.nasui:pc"
STRANGER = "iqn.2026-01.test.nasui:stranger"
SECRET = "chap-secret-01"
PEER_SECRET = "peer-secret-02"
BASE = "iqn.2026-11.local.nasui"
DISK = f"{BASE}:disk"
MIB = 1024**2


def capacity(port: int, initiator: str = PC, iqn: str = DISK, **creds: str) -> Result:
    """READ CAPACITY(16) of LUN 1 of `iqn`, as `initiator` with these CHAP credentials."""
    result, _size, _block = read_capacity(url("127.0.0.1", port, iqn, 1, **creds), initiator)
    return result


def as_pc(port: int, iqn: str = DISK) -> Result:
    """READ CAPACITY(16) as the PC with its CHAP secret (what `shared` allows)."""
    return capacity(port, iqn=iqn, user="pc", secret=SECRET)


def _post(client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST to the API and return the created object (any other answer fails the test)."""
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
    return {"target": target, "mapping": mapping, "portal": portal}


def test_discovery_lists_the_target(shared, target_service):
    found, names = discover(url("127.0.0.1", target_service, user="pc", secret=SECRET), PC)
    assert found.ok, found.output
    assert DISK in names


def test_discovery_chap_from_the_settings_guards_the_target_list(
    admin_client, shared, target_service
):
    api = admin_client
    lister = "disco-secret-1"
    group = _post(
        api,
        "sharing/iscsi/auth-groups/",
        {
            "tag": 9,
            "user": "lister",
            "secret": lister,
            "peer_user": "nas",
            "peer_secret": PEER_SECRET,
        },
    )
    settings = {"basename": BASE, "port": target_service}
    for method in ("chap", "mutual"):
        body = {**settings, "discovery_auth_method": method, "discovery_auth_group": group["id"]}
        assert api.put("/api/sharing/iscsi/settings/", body, content_type=JSON).status_code == 200
        anonymous, _ = discover(url("127.0.0.1", target_service), PC)
        assert not anonymous.ok, anonymous.output
        assert "Authentication failure" in anonymous.output
        mutual = method == "mutual"
        address = url(
            "127.0.0.1",
            target_service,
            user="lister",
            secret=lister,
            target_user="nas" if mutual else None,
            target_secret=PEER_SECRET if mutual else None,
        )
        found, names = discover(address, PC)
        assert found.ok, (method, found.output)
        assert DISK in names
    body = {**settings, "discovery_auth_method": "none"}
    assert api.put("/api/sharing/iscsi/settings/", body, content_type=JSON).status_code == 200
    assert discover(url("127.0.0.1", target_service), PC)[0].ok


def test_the_lun_reports_the_zvols_size_and_block_size(shared, target_service):
    assert shared["mapping"]["lun_id"] == 1
    lun = url("127.0.0.1", target_service, DISK, 1, user="pc", secret=SECRET)
    result, size, block = read_capacity(lun, PC)
    assert result.ok, result.output
    assert (size, block) == (64 * MIB, 4096)


def test_written_data_reads_back_and_lands_in_the_zvol(shared, target_service):
    pc = {"initiator": PC, "user": "pc", "secret": SECRET}
    wrote = qemu_io(target_service, DISK, 1, ["write -P 0xa5 1M 1M"], **pc)
    assert wrote.ok, wrote.output
    read = qemu_io(target_service, DISK, 1, ["read -P 0xa5 1M 1M"], **pc)
    assert read.ok, read.output
    assert "Pattern verification failed" not in read.output
    backing = get_engine().zvol_path("tank/disk")
    with open(backing, "rb") as zvol:
        zvol.seek(MIB)
        assert zvol.read(MIB) == b"\xa5" * MIB


@pytest.mark.parametrize(
    ("initiator", "creds", "refusal"),
    [
        (PC, {"user": "pc", "secret": "wrong-secret-99"}, "Authentication failure"),
        (PC, {}, "Authentication failure"),
        (STRANGER, {"user": "pc", "secret": SECRET}, "Target not found"),
    ],
    ids=["wrong-secret", "no-secret", "foreign-initiator"],
)
def test_wrong_credentials_and_foreign_initiators_are_refused(
    shared, target_service, initiator, creds, refusal
):
    result = capacity(target_service, initiator, **creds)
    assert not result.ok
    assert refusal in result.output


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
    pc2 = {"user": "pc2", "secret": SECRET, "target_user": "nas"}
    assert capacity(target_service, iqn=iqn, target_secret=PEER_SECRET, **pc2).ok
    refused = capacity(target_service, iqn=iqn, target_secret="not-the-peer-1", **pc2)
    assert not refused.ok
    assert "CHAP" in refused.output


def test_removing_the_association_removes_the_lun(admin_client, shared, target_service):
    response = admin_client.delete(f"/api/sharing/iscsi/associations/{shared['mapping']['id']}/")
    assert response.status_code == 204
    assert not as_pc(target_service).ok


def test_a_restarted_target_gets_the_same_configuration_back(shared, target_service):
    pid = int((runtime.engine().run_dir / "tgtd.pid").read_text())  # type: ignore[attr-defined]
    os.kill(pid, signal.SIGKILL)
    assert not runtime.engine().is_running()
    report = IscsiRuntime().supervise()
    assert report is not None
    assert report.startswith("target started")
    assert "nothing to configure" not in report
    result = as_pc(target_service)
    assert result.ok, result.output


def test_a_stopped_service_stays_stopped(shared, target_service):
    IscsiRuntime().control("stop")
    assert IscsiRuntime().supervise() is None
    assert not runtime.engine().is_running()
    IscsiRuntime().control("start")
    assert as_pc(target_service).ok


def test_the_boot_step_starts_the_target_and_applies_once(shared, target_service):
    from django.core.management import call_command

    runtime.engine().stop()
    assert not as_pc(target_service).ok
    call_command("iscsi_service", "--once", "--wait", "0")
    assert runtime.engine().is_running()  # left running: the boot step does not stop it
    result = as_pc(target_service)
    assert result.ok, result.output


def _referenced(api, zvol: str) -> int:
    """The zvol's referenced bytes once its pending writes are settled."""
    response = api.get(f"/api/storage/zvols/{zvol}/?settle=true")
    assert response.status_code == 200, response.json()
    return int(response.json()["referenced"])


def test_a_discard_from_the_initiator_returns_the_space(admin_client, shared, target_service):
    pc = {"initiator": PC, "user": "pc", "secret": SECRET}
    before = _referenced(admin_client, "tank/disk")
    wrote = qemu_io(target_service, DISK, 1, ["write -P 0xa5 0 8M"], **pc)
    assert wrote.ok, wrote.output
    written = _referenced(admin_client, "tank/disk")
    assert written >= before + 8 * MIB
    discarded = qemu_io(target_service, DISK, 1, ["discard 0 8M"], **pc)
    assert discarded.ok, discarded.output
    assert _referenced(admin_client, "tank/disk") <= before + MIB


def test_growing_a_shared_zvol_reaches_the_initiator_at_once(admin_client, shared, target_service):
    lun = url("127.0.0.1", target_service, DISK, 1, user="pc", secret=SECRET)
    assert read_capacity(lun, PC)[1] == 64 * MIB
    response = admin_client.patch(
        "/api/storage/zvols/tank/disk/", {"size": "96M"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    result, size, block = read_capacity(lun, PC)
    assert result.ok, result.output
    assert (size, block) == (96 * MIB, 4096)


def test_an_apply_failing_at_its_third_step_leaves_database_and_target_as_before(
    admin_client, shared, target_service, monkeypatch
):
    from sharing.iscsi.engine.tgt import TgtEngine
    from sharing.iscsi.engine.tgt.steps import run_step as real_run_step
    from sharing.models import Target

    tgt = runtime.engine()
    assert isinstance(tgt, TgtEngine)
    before = tgt.read_state()
    calls: list[object] = []

    def third_fails(tgtadm, step, records):
        calls.append(step)
        if len(calls) == 3:
            raise EngineFailure("injected failure", argv=list(step.args), returncode=22)
        return real_run_step(tgtadm, step, records)

    monkeypatch.setattr("sharing.iscsi.engine.tgt.engine.run_step", third_fails)
    group = {"portal": shared["portal"]["id"], "auth_method": "none"}
    response = admin_client.post(
        "/api/sharing/iscsi/targets/", {"name": "second", "groups": [group]}, content_type=JSON
    )
    monkeypatch.undo()
    assert len(calls) >= 3
    assert response.status_code == 400
    assert "injected failure" in response.json()["detail"]
    assert not Target.objects.filter(name="second").exists()
    assert tgt.read_state() == before
    assert as_pc(target_service).ok  # the first target still serves its initiator

"""The Services page and API, and the supervisors' first check honouring start at boot."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import pytest

from sharing.iscsi.runtime import IscsiRuntime
from sharing.management.supervisor import check
from sharing.models import IscsiSettings, NfsSettings, SmbSettings
from sharing.nfs import runtime as nfs_runtime
from sharing.nfs.runtime import NfsRuntime
from sharing.runtime import ApplyError
from sharing.smb import runtime as smb_runtime
from sharing.smb.engine.errors import SmbEngineError
from sharing.smb.runtime import SmbRuntime

pytestmark = pytest.mark.django_db
JSON = "application/json"


@dataclass
class FakeDaemon:
    """Stands in for smbd or the kernel NFS server: records starts, stops and applies."""

    running: bool = False
    refuse: str = ""
    calls: list[str] = field(default_factory=list)

    def start(self) -> None:
        if self.refuse:
            raise SmbEngineError(self.refuse)
        self.calls.append("start")
        self.running = True

    def stop(self) -> None:
        self.calls.append("stop")
        self.running = False

    def is_running(self) -> bool:
        return self.running

    def apply(self, state: Any) -> None:
        self.calls.append("apply")


@pytest.fixture
def boot(monkeypatch, settings, tmp_path) -> dict[str, str]:
    """This boot's id, changed by a test to reboot; a private data directory."""
    settings.DATA_DIR = tmp_path
    current = {"id": "boot-1"}
    monkeypatch.setattr("nasui.lib.switch.current_boot", lambda *_: current["id"])
    return current


@pytest.fixture
def smbd(monkeypatch, boot) -> FakeDaemon:
    """smbd on a double; the first check's full apply does nothing."""
    double = FakeDaemon()
    monkeypatch.setattr(smb_runtime, "smb_engine", lambda: double)
    monkeypatch.setattr(SmbRuntime, "apply", lambda self: None)
    monkeypatch.setattr(NfsRuntime, "apply", lambda self: None)
    return double


@pytest.fixture
def nfsd(monkeypatch, settings, boot) -> FakeDaemon:
    """The kernel NFS server (NASUI_NFS=kernel) on a double."""
    settings.NASUI_NFS = "kernel"
    double = FakeDaemon()
    monkeypatch.setattr(nfs_runtime, "nfs_engine", lambda: double)
    monkeypatch.setattr(nfs_runtime, "build_nfs_state", lambda: None)
    return double


@pytest.fixture
def daemons(fake_target, smbd, nfsd) -> dict[str, Any]:
    """Every service on a double: the target, smbd and nfsd."""
    return {"iscsi": fake_target, "smb": smbd, "nfs": nfsd}


def first_checks() -> None:
    """The file servers' first checks, as the SMB service daemon runs them at boot."""
    for server in (SmbRuntime(), NfsRuntime()):
        check(server, first=True, out=print, err=print)


def _disable(model: Any) -> None:
    """Turn start at boot off in a settings row."""
    row = model.load()
    row.start_at_boot = False
    row.save()


# -- start at boot in the supervisors -------------------------------------------------------


def test_start_at_boot_is_on_by_default():
    assert IscsiSettings.load().start_at_boot
    assert SmbSettings.load().start_at_boot
    assert NfsSettings.load().start_at_boot


def test_a_disabled_target_stays_stopped_at_boot_and_after(fake_target, boot):
    _disable(IscsiSettings)
    fake_target.running = False
    assert (IscsiRuntime().supervise(first=True) or "").startswith("left stopped")
    assert IscsiRuntime().supervise() is None
    assert not fake_target.running
    assert fake_target.applied == []
    assert IscsiRuntime().status().actions == ["start"]


def test_the_boot_step_says_it_left_a_disabled_target_stopped(fake_target, boot):
    from django.core.management import call_command

    _disable(IscsiSettings)
    fake_target.running = False
    out = io.StringIO()
    call_command("iscsi_service", "--once", "--wait", "0", "--interval", "0", stdout=out)
    assert "iSCSI service: left stopped (start at boot is off" in out.getvalue()
    assert not fake_target.running


def test_an_enabled_target_starts_at_boot_after_a_stop_in_the_previous_boot(fake_target, boot):
    IscsiRuntime().control("stop")
    boot["id"] = "boot-2"
    assert (IscsiRuntime().supervise(first=True) or "").startswith("target started")
    assert fake_target.running
    assert IscsiRuntime().status().running


def test_a_disabled_smbd_stays_stopped_at_boot_until_a_user_starts_it(smbd):
    _disable(SmbSettings)
    assert (SmbRuntime().supervise(first=True) or "").startswith("smbd left stopped")
    assert SmbRuntime().supervise() is None
    assert smbd.calls == []
    SmbRuntime().control("start")
    assert smbd.running
    smbd.running = False  # smbd died: the user's Start of this boot stands
    assert SmbRuntime().supervise() == "smbd started"


def test_an_enabled_smbd_starts_at_boot(smbd):
    assert SmbRuntime().supervise(first=True) == "smbd started"
    assert smbd.calls == ["start"]  # the first check applied everything already


def test_a_users_smb_stop_ends_with_the_boot(smbd, boot):
    SmbRuntime().control("start")
    SmbRuntime().control("stop")
    assert (SmbRuntime().supervise(first=True) or "").startswith("smbd left stopped")  # same boot
    boot["id"] = "boot-2"
    assert SmbRuntime().supervise(first=True) == "smbd started"


def test_the_first_check_starts_an_enabled_nfs_server_with_its_exports(smbd, nfsd):
    first_checks()
    assert nfsd.calls == ["start", "apply"]


def test_refused_nfs_exports_at_boot_do_not_keep_smb_down(smbd, nfsd, monkeypatch):
    refused: list[str] = []

    def refuse(self: NfsRuntime) -> None:
        refused.append("nfs")
        raise ApplyError("The NFS server refused the change: exportfs")

    monkeypatch.setattr(NfsRuntime, "apply", refuse)
    first_checks()
    assert refused == ["nfs"]  # the exports were tried at boot, and failed
    assert smbd.running


def test_the_first_check_stops_a_disabled_nfs_server_its_unit_started(smbd, nfsd):
    _disable(NfsSettings)
    nfsd.running = True
    first_checks()
    assert nfsd.calls == ["stop"]
    assert NfsRuntime().status().actions == ["start"]


def test_nfs_start_and_stop_act_on_the_kernel_server(nfsd):
    NfsRuntime().control("start")
    assert nfsd.running
    NfsRuntime().control("stop")
    assert not nfsd.running
    assert nfs_runtime.switch().held_stopped()


def test_nfs_offers_no_controls_where_it_is_not_served(settings, boot):
    settings.NASUI_NFS = "none"
    nfs_runtime.nfs_engine.cache_clear()
    status = NfsRuntime().status()
    assert status.actions == []
    assert "exports are saved, but no client can mount them here" in status.message
    with pytest.raises(ApplyError, match="NFS is not served on this machine"):
        NfsRuntime().control("start")


# -- the page -------------------------------------------------------------------------------


def test_the_page_shows_each_service_with_its_engine_state_and_controls(admin_client, daemons):
    daemons["smb"].running = True
    body = admin_client.get("/services/").content.decode()
    assert 'data-service="iscsi"' in body
    assert "tgt (userspace tgtd)" in body
    assert "kernel NFS server" in body
    assert "wrapped smbd" in body
    assert "Stop the SMB service? Open files on every client are closed." in body
    assert "0 connected initiators lose their disks until it starts again." in body
    assert 'href="/services/"' in body  # the main navigation links the page


def test_the_page_says_nfs_is_not_served_and_offers_no_nfs_controls(admin_client, smbd, settings):
    settings.NASUI_NFS = "none"
    nfs_runtime.nfs_engine.cache_clear()
    body = admin_client.get("/services/").content.decode()
    assert "exports are saved, but no client can mount them here" in body
    assert "/services/nfs/start/" not in body
    assert "/services/nfs/boot/" not in body


def test_stop_from_the_page_stops_and_says_so(admin_client, daemons):
    daemons["smb"].running = True
    response = admin_client.post("/services/smb/stop/", follow=True)
    assert "SMB service: stop done, now stopped." in response.content.decode()
    assert not daemons["smb"].running


def test_a_refused_start_shows_the_reason_on_the_page(admin_client, daemons):
    daemons["smb"].refuse = "smbd: port 4450 is taken"
    response = admin_client.post("/services/smb/start/", follow=True)
    assert "port 4450 is taken" in response.content.decode()


def test_an_unknown_action_from_the_page_is_an_error_message(admin_client, daemons):
    response = admin_client.post("/services/smb/reload/", follow=True)
    assert "Unknown action" in response.content.decode()


def test_an_unknown_service_page_is_a_404(admin_client, daemons):
    assert admin_client.post("/services/ftp/start/").status_code == 404
    assert admin_client.post("/services/ftp/boot/", {"enable": "1"}).status_code == 404


def test_the_boot_switch_turns_start_at_boot_off_and_on(admin_client, daemons):
    response = admin_client.post("/services/smb/boot/", {"enable": "0"}, follow=True)
    assert "SMB service: stays stopped at boot." in response.content.decode()
    assert not SmbSettings.load().start_at_boot
    assert daemons["smb"].calls == []  # what runs now is left as it is
    admin_client.post("/services/smb/boot/", {"enable": "1"})
    assert SmbSettings.load().start_at_boot


def test_the_boot_switch_refuses_anything_but_0_or_1(admin_client, daemons):
    response = admin_client.post("/services/smb/boot/", {"enable": "yes"}, follow=True)
    assert "send enable=1 (on) or enable=0 (off)" in response.content.decode()
    assert SmbSettings.load().start_at_boot


def test_the_old_control_urls_still_work(admin_client, daemons):
    daemons["smb"].running = True
    assert admin_client.post("/sharing/files/service/stop/").status_code == 302
    assert not daemons["smb"].running
    assert admin_client.post("/sharing/service/stop/").status_code == 302
    assert not daemons["iscsi"].running


# -- the API --------------------------------------------------------------------------------


def test_the_api_lists_every_service(admin_client, daemons):
    body = admin_client.get("/api/services/").json()
    assert [s["name"] for s in body] == ["iscsi", "smb", "nfs"]
    assert all(s["enable"] for s in body)


def test_the_api_shows_one_service(admin_client, daemons):
    body = admin_client.get("/api/services/smb/").json()
    assert body["engine"].startswith("wrapped smbd")
    assert body["running"] is False
    assert body["actions"] == ["start"]


def test_an_unknown_service_is_a_404_naming_the_services(admin_client, daemons):
    response = admin_client.get("/api/services/ftp/")
    assert response.status_code == 404
    assert "iscsi, smb, nfs" in response.json()["detail"]
    assert admin_client.post("/api/services/ftp/start/").status_code == 404
    patch = admin_client.patch("/api/services/ftp/", {"enable": True}, content_type=JSON)
    assert patch.status_code == 404


def test_the_api_starts_and_stops_a_service(admin_client, daemons):
    started = admin_client.post("/api/services/smb/start/")
    assert started.status_code == 200
    assert started.json()["running"] is True
    stopped = admin_client.post("/api/services/smb/", {"action": "stop"}, content_type=JSON)
    assert stopped.json()["running"] is False


def test_an_unknown_action_is_a_400_naming_the_field(admin_client, daemons):
    in_path = admin_client.post("/api/services/smb/reload/")
    assert in_path.status_code == 400
    assert "action" in in_path.json()["fields"]
    in_body = admin_client.post("/api/services/smb/", {"action": "reload"}, content_type=JSON)
    assert in_body.status_code == 400
    assert "action" in in_body.json()["fields"]


def test_a_refused_action_is_a_400_with_the_reason(admin_client, daemons):
    daemons["smb"].refuse = "smbd: port 4450 is taken"
    response = admin_client.post("/api/services/smb/start/")
    assert response.status_code == 400
    assert "port 4450 is taken" in response.json()["detail"]


def test_patch_turns_start_at_boot_off(admin_client, daemons):
    response = admin_client.patch("/api/services/iscsi/", {"enable": False}, content_type=JSON)
    assert response.status_code == 200
    assert response.json()["enable"] is False
    assert not IscsiSettings.load().start_at_boot


@pytest.mark.parametrize("body", [{}, {"enable": "perhaps"}])
def test_patch_without_a_boolean_enable_is_a_400_naming_the_field(admin_client, daemons, body):
    response = admin_client.patch("/api/services/smb/", body, content_type=JSON)
    assert response.status_code == 400
    assert "enable" in response.json()["fields"]


def test_the_api_needs_a_login_or_token(client, daemons):
    assert client.get("/api/services/").status_code == 401
    assert client.post("/api/services/smb/stop/").status_code == 401


def test_service_changes_reach_the_event_stream(admin_client, smbd):
    from nasui import events

    admin_client.post("/api/services/smb/start/")
    admin_client.post("/api/services/smb/", {"action": "stop"}, content_type=JSON)
    SmbRuntime().control("start")
    smbd.running = False  # smbd died: its supervisor brings it back, and says so
    assert check(SmbRuntime(), first=False, out=lambda _: None, err=lambda _: None)
    said = [e.data for e in events.recent(frozenset({"service"}))]
    assert [(e["name"], e.get("running")) for e in said[:2]] == [("smb", True), ("smb", False)]
    assert said[2] == {"name": "smb", "label": "SMB", "did": "smbd started"}

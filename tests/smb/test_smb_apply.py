"""Applying to a running smbd: testparm gates changes, a reload keeps the process, stop ends it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from nasui.lib.net import free_loopback_port
from nasui.lib.processes import is_alive
from sharing.smb.engine import server as engine_module
from sharing.smb.engine.desired import SmbGlobals, SmbShareSpec, SmbState
from sharing.smb.engine.errors import ConfigRejected, SmbStartFailed, SmbUnavailable
from sharing.smb.engine.render import render
from tests.smb.conftest import PASSWORDS, make_accounts

pytestmark = pytest.mark.smb

ALICE = {"user": "alice", "password": PASSWORDS["alice"]}


def samba_pids(conf: Path) -> list[int]:
    """Every live process whose command line names this smb.conf (smbd, samba-dcerpcd...)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if str(conf).encode() in args and is_alive(int(entry.name)):
            pids.append(int(entry.name))
    return pids


@pytest.mark.parametrize(
    ("bad_line", "complaint"),
    [("\tbogus parameter = 1", "bogus parameter"), ("\tread only = maybe", "not boolean")],
)
def test_a_config_testparm_refuses_never_reaches_the_running_server(
    served, monkeypatch, bad_line, complaint
):
    share = SmbShareSpec("data", str(served.share_dir()))
    served.apply(share)
    before, pid = served.engine.layout.conf.read_bytes(), served.engine.daemon.pid()
    passdb = served.engine.layout.smbpasswd.read_bytes()
    monkeypatch.setattr(engine_module, "render", lambda s, lay: render(s, lay) + bad_line + "\n")
    # The refused state would also drop alice's password and add a share.
    without_alice = make_accounts({k: v for k, v in served.hashes.items() if k != "alice"})
    newer = served.state(
        share, SmbShareSpec("new", str(served.share_dir())), accounts=without_alice
    )
    with pytest.raises(ConfigRejected, match=complaint):
        served.engine.apply(newer)
    assert served.engine.layout.conf.read_bytes() == before
    assert served.engine.layout.smbpasswd.read_bytes() == passdb
    assert served.engine.daemon.pid() == pid
    assert served.client.run("data", "ls", **ALICE).ok
    assert served.client.run("new", "ls", **ALICE).statuses == ["NT_STATUS_BAD_NETWORK_NAME"]


def test_a_missing_vfs_module_is_refused_before_anything_changes(served, monkeypatch):
    share = SmbShareSpec("data", str(served.share_dir()))
    served.apply(share)
    before = served.engine.layout.conf.read_bytes()
    monkeypatch.setattr(
        engine_module, "render", lambda s, lay: render(s, lay) + "\tvfs objects = no_such_vfs\n"
    )
    with pytest.raises(ConfigRejected, match="no_such_vfs is not installed"):
        served.engine.apply(served.state(share))
    assert served.engine.layout.conf.read_bytes() == before


def test_every_feature_at_once_passes_testparm_and_serves(served):
    everything = SmbShareSpec(
        "all",
        str(served.share_dir()),
        comment="100% of the features",
        guest_ok=True,
        users=("alice",),
        groups=("staff",),
        shadow_copy=True,
        fruit=True,
        time_machine=True,
        time_machine_limit=5 << 30,
        audit=True,
    )
    served.apply(everything)
    assert served.client.run("all", "ls", **ALICE).ok


def test_a_changed_share_is_reloaded_in_place_and_clients_see_it(served, tmp_path):
    served_dir = served.share_dir()
    served.apply(SmbShareSpec("data", str(served_dir)))
    pid = served.engine.daemon.pid()
    (tmp_path / "a.txt").write_text("a\n")
    assert served.client.run("data", "put a.txt", cwd=tmp_path, **ALICE).ok
    report = served.apply(SmbShareSpec("data", str(served_dir), read_only=True))
    assert report.action == "reloaded"
    assert report.config_changed
    assert served.engine.daemon.pid() == pid
    (tmp_path / "b.txt").write_text("b\n")
    refused = served.client.run("data", "put b.txt", cwd=tmp_path, **ALICE)
    assert "NT_STATUS_ACCESS_DENIED" in refused.statuses, refused.output
    assert sorted(p.name for p in served_dir.iterdir()) == ["a.txt"]


def test_applying_the_same_state_again_changes_nothing(served):
    share = SmbShareSpec("data", str(served.share_dir()))
    served.apply(share)
    mtime = served.engine.layout.conf.stat().st_mtime_ns
    report = served.apply(share)
    assert report.action == "unchanged"
    assert not report.changed
    assert served.engine.layout.conf.stat().st_mtime_ns == mtime


def test_a_new_port_restarts_smbd_there(fresh):
    fresh.apply(SmbShareSpec("data", str(fresh.share_dir())))
    old_pid = fresh.engine.daemon.pid()
    fresh.port = free_loopback_port()
    report = fresh.apply(SmbShareSpec("data", str(fresh.share_dir())))
    assert report.action == "restarted", (report, fresh.engine.log_tail())
    assert fresh.engine.daemon.pid() != old_pid
    assert fresh.engine.status().port == fresh.port
    listed = fresh.client.run("data", "ls", **ALICE)
    assert listed.ok, (listed.output, fresh.engine.log_tail())


def test_stop_ends_every_smbd_process_and_start_brings_it_back(fresh):
    fresh.apply(SmbShareSpec("data", str(fresh.share_dir())))
    conf = fresh.engine.layout.conf
    # A client gets its own smbd child, and listing shares starts samba-dcerpcd: all must go.
    assert fresh.client.run("data", "ls", **ALICE).ok
    listing = fresh.client.list_shares(**ALICE)
    assert listing.ok, listing.output
    assert "data" in listing.output
    assert len(samba_pids(conf)) >= 3
    fresh.engine.stop()
    assert samba_pids(conf) == []
    status = fresh.engine.status()
    assert (status.running, status.pid) == (False, None)
    refused = fresh.client.run("data", "ls", **ALICE)
    assert "NT_STATUS_CONNECTION_REFUSED" in refused.statuses, refused.output
    fresh.engine.start()
    assert fresh.engine.is_running()
    assert fresh.client.run("data", "ls", **ALICE).ok


def test_an_applied_state_while_stopped_is_written_and_served_at_start(fresh):
    fresh.engine.stop()
    report = fresh.apply(SmbShareSpec("later", str(fresh.share_dir())))
    assert report.action == "written"
    assert not fresh.engine.is_running()
    fresh.engine.start()
    assert fresh.client.run("later", "ls", **ALICE).ok


def test_a_port_already_taken_fails_the_start_with_smbds_log(make_engine, nt_hashes):
    engine = make_engine()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        engine.apply(SmbState(globals=SmbGlobals(port=port), accounts=make_accounts(nt_hashes)))
        with pytest.raises(SmbStartFailed) as caught:
            engine.start()
    assert "smbd" in str(caught.value)
    assert caught.value.log_tail
    assert samba_pids(engine.layout.conf) == []


def test_a_missing_smbd_is_named_with_its_package(make_engine, nt_hashes):
    engine = make_engine(smbd="/nonexistent/smbd")
    engine.apply(
        SmbState(globals=SmbGlobals(port=free_loopback_port()), accounts=make_accounts(nt_hashes))
    )
    with pytest.raises(SmbUnavailable, match="apt-get install samba"):
        engine.start()

"""Starting, stopping and restarting the private tgtd; sessions; errors that explain themselves."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import pytest

from nasui.lib.net import free_loopback_port
from nasui.lib.processes import is_alive
from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import (
    BackingStoreMissing,
    EngineFailure,
    EngineStartFailed,
    EngineUnavailable,
)
from sharing.iscsi.engine.tgt import TgtEngine
from tests.iscsi.iscsi_clients import INITIATOR, discover, image_opts, qemu_io, run, url

pytestmark = pytest.mark.iscsi

IQN = "iqn.2024-01.org.nasui.test:disk"
SECRET = "secretsecret12"


def _tgtd_pid(engine: TgtEngine) -> int:
    """The pid of the engine's tgtd, from its pid file."""
    return int(engine.daemon.pid_path.read_text())


def test_after_tgtd_dies_start_and_apply_bring_everything_back(tgt, portal, make_disk):
    disk = make_disk("keep.img")
    desired = DesiredState(portals=(portal,), targets=(
        TargetSpec(IQN, initiators=(INITIATOR,), auth="chap", chap=ChapSpec("alice", SECRET),
                   luns=(LunSpec(1, str(disk), 4096),)),
    ))  # fmt: skip
    tgt.apply(desired)
    cred = {"user": "alice", "secret": SECRET}
    assert qemu_io(portal.port, IQN, 1, ["write -P 0x5a 0 64k"], **cred).ok
    pid = _tgtd_pid(tgt)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while is_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not tgt.is_running()
    tgt.start()
    assert tgt.read_state().targets == ()  # nothing persists in tgtd itself
    report = tgt.apply(desired)
    assert {c.kind for c in report.changes} >= {"account", "target", "binding", "lun", "acl"}
    back = qemu_io(portal.port, IQN, 1, ["read -P 0x5a 0 64k"], **cred)
    assert back.ok, back.output
    assert "verification failed" not in back.output.lower()
    assert not tgt.apply(desired).changed


def test_sessions_show_connected_initiators(tgt, portal, make_disk):
    tgt.apply(DesiredState(portals=(portal,), targets=(
        TargetSpec(IQN, luns=(LunSpec(1, str(make_disk("a.img"))),)),)))  # fmt: skip
    assert tgt.sessions() == []
    opts = image_opts(f"127.0.0.1:{portal.port}", IQN, 1)
    holder = subprocess.Popen(
        ["qemu-io", "--image-opts", opts, "-r", "-c", "read 0 4k", "-c", "sleep 1500"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        sessions = tgt.sessions()
        while not sessions and time.monotonic() < deadline:
            time.sleep(0.1)
            sessions = tgt.sessions()
        assert [(s.target, s.initiator, s.address) for s in sessions] == [
            (IQN, INITIATOR, "127.0.0.1")
        ]
    finally:
        holder.wait(timeout=30)
    assert tgt.sessions() == []


def test_start_refuses_a_portal_it_cannot_listen_on(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        engine = TgtEngine(tmp_path / "busy", portals=[PortalSpec("127.0.0.1", port)])
        try:
            # tgtd itself would fall back to 0.0.0.0:3260 and [::]:3260: never accept that.
            with pytest.raises(EngineStartFailed, match="could not listen"):
                engine.start()
            pid = _tgtd_pid(engine)
            assert not is_alive(pid)
            assert not engine.is_running()
        finally:
            engine.stop()


def test_stop_leaves_no_process_behind(tmp_path, portal):
    engine = TgtEngine(tmp_path / "state", portals=[portal])
    engine.start()
    pid = _tgtd_pid(engine)
    assert engine.is_running()
    assert is_alive(pid)
    engine.stop()
    assert not engine.is_running()
    assert not is_alive(pid)
    engine.stop()  # stopping twice is harmless


def test_without_portals_it_starts_on_loopback_and_apply_moves_it(tmp_path, make_disk):
    engine = TgtEngine(tmp_path / "state")
    try:
        engine.start()
        ((ip, _port),) = engine.read_state().portals
        assert ip == "127.0.0.1"
        wanted = PortalSpec("127.0.0.1", free_loopback_port())
        report = engine.apply(DesiredState(portals=(wanted,), targets=(TargetSpec(IQN),)))
        assert [c.action for c in report.of_kind("portal")] == ["add", "remove"]
        assert engine.read_state().portals == (("127.0.0.1", wanted.port),)
        engine.stop()
        engine.start()  # remembers the applied portals
        assert engine.read_state().portals == (("127.0.0.1", wanted.port),)
    finally:
        engine.stop()


def test_targets_are_served_on_an_ipv6_portal_too(tgt, portal):
    six = PortalSpec("::1", portal.port)
    tgt.apply(DesiredState(portals=(portal, six), targets=(TargetSpec(IQN),)))
    result, names = discover(f"iscsi://[::1]:{portal.port}")
    assert result.ok, result.output
    assert names == [IQN]


def test_a_failed_command_carries_argv_stderr_and_the_daemon_log(tgt):
    args = ("--mode", "account", "--op", "new", "--user", "u", "--password", "s3cretpass")
    tgt.tgtadm.run(*args)
    with pytest.raises(EngineFailure) as info:
        tgt.tgtadm.run(*args)
    text = str(info.value)
    assert "tgt: tgtadm failed: this account already exists" in text
    assert "command: " in text
    assert "--password ********" in text
    assert "s3cretpass" not in text
    assert info.value.returncode not in (None, 0)


def test_a_rich_state_is_served_as_specified_and_reapplies_as_no_change(tgt, portal, make_disk):
    chap = ChapSpec("carol", SECRET, "tgtcarol", "mutualsecret34")
    a_lun = LunSpec(1, str(make_disk("a.img")), 4096, readonly=True, serial="NASUI0001")
    a = TargetSpec(
        f"{IQN}-a",
        networks=("127.0.0.0/8", "192.168.0.0/16"),
        auth="mutual",
        chap=chap,
        luns=(a_lun,),
    )
    b = TargetSpec(
        f"{IQN}-b",
        initiators=(INITIATOR,),
        auth="chap",
        chap=ChapSpec("dave", SECRET),
        luns=(LunSpec(3, str(make_disk("b.img"))),),
    )
    desired = DesiredState(
        portals=(portal,),
        discovery_chap=ChapSpec("disco", "discosecret12", "tgtdisco", "discomutual34"),
        targets=(a, b),
    )
    assert tgt.apply(desired).changed
    assert not tgt.apply(desired).changed
    lun_url = url("127.0.0.1", portal.port, f"{IQN}-a", 1, user="carol", secret=SECRET,
                  target_user="tgtcarol", target_secret="mutualsecret34")  # fmt: skip
    serial = run(["iscsi-inq", "-i", INITIATOR, "-e", "1", "-c", "128", lun_url])
    assert serial.ok, serial.output
    assert "NASUI0001" in serial.output
    write = qemu_io(portal.port, f"{IQN}-a", 1, ["write 0 4k"], user="carol", secret=SECRET)
    assert not write.ok
    assert "write protected" in write.output


def test_another_engine_on_the_same_state_dir_sees_and_stops_the_daemon(tmp_path, portal):
    starter = TgtEngine(tmp_path / "shared", portals=[portal])
    starter.start()
    pid = _tgtd_pid(starter)
    other = TgtEngine(tmp_path / "shared")  # e.g. a web worker, not the process that started it
    try:
        assert other.is_running()
        other.start()  # already running: nothing happens
        assert _tgtd_pid(other) == pid
        other.stop()
        assert not starter.is_running()
    finally:
        starter.stop()
    deadline = time.monotonic() + 5
    while is_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not is_alive(pid)


def test_a_missing_backing_store_is_refused_before_anything_changes(tgt, portal, tmp_path):
    spec = TargetSpec(IQN, luns=(LunSpec(1, str(tmp_path / "absent.img")),))
    with pytest.raises(BackingStoreMissing, match=r"absent\.img"):
        tgt.apply(DesiredState(portals=(portal,), targets=(spec,)))
    assert tgt.read_state().targets == ()


def test_apply_without_a_running_tgtd_says_so(tmp_path, portal):
    engine = TgtEngine(tmp_path / "idle", portals=[portal])
    with pytest.raises(EngineUnavailable, match="tgtd is not running"):
        engine.apply(DesiredState(portals=(portal,), targets=(TargetSpec(IQN),)))

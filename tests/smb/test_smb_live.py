"""A wrapped smbd served by the engine, checked with real clients: smbclient and smbprotocol."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from smbprotocol.exceptions import LogonFailure, SMBOSError

from sharing.smb.engine.desired import SmbShareSpec
from tests.smb.conftest import PASSWORDS, make_accounts
from tests.smb.smb_clients import list_dir, read_file, smbprotocol_session, write_file

pytestmark = pytest.mark.smb

MIB = 1 << 20


def test_smbclient_writes_lists_and_reads_back_identical_bytes(served, tmp_path):
    served_dir = served.share_dir()
    served.apply(SmbShareSpec("data", str(served_dir)))
    payload = os.urandom(MIB)
    (tmp_path / "up.bin").write_bytes(payload)
    result = served.client.run(
        "data",
        "put up.bin; ls; get up.bin down.bin",
        user="alice",
        password=PASSWORDS["alice"],
        cwd=tmp_path,
    )
    assert result.ok, result.output
    assert "up.bin" in result.output
    assert (served_dir / "up.bin").read_bytes() == payload
    assert (tmp_path / "down.bin").read_bytes() == payload


def test_smbprotocol_writes_lists_and_reads_back_identical_bytes(served):
    served_dir = served.share_dir()
    served.apply(SmbShareSpec("data", str(served_dir)))
    payload = os.urandom(MIB)
    with smbprotocol_session(served.port, "bob", PASSWORDS["bob"]) as cache:
        write_file(cache, served.port, "data", "random.bin", payload)
        assert list_dir(cache, served.port, "data") == ["random.bin"]
        assert read_file(cache, served.port, "data", "random.bin") == payload
    assert (served_dir / "random.bin").read_bytes() == payload


def test_a_wrong_password_is_refused_by_both_clients(served):
    served.apply(SmbShareSpec("data", str(served.share_dir())))
    result = served.client.run("data", "ls", user="alice", password="not-her-password")
    assert result.statuses == ["NT_STATUS_LOGON_FAILURE"], result.output
    with pytest.raises(LogonFailure), smbprotocol_session(served.port, "alice", "nope"):
        pass


def test_only_the_listed_users_and_groups_get_in(served):
    served.apply(
        SmbShareSpec("mine", str(served.share_dir()), users=("alice",)),
        SmbShareSpec("team", str(served.share_dir()), groups=("staff",)),
    )
    alice, bob = {"password": PASSWORDS["alice"]}, {"password": PASSWORDS["bob"]}
    assert served.client.run("mine", "ls", user="alice", **alice).ok
    refused = served.client.run("mine", "ls", user="bob", **bob)
    assert "NT_STATUS_ACCESS_DENIED" in refused.statuses, refused.output
    assert served.client.run("team", "ls", user="bob", **bob).ok
    outsider = served.client.run("team", "ls", user="alice", **alice)
    assert "NT_STATUS_ACCESS_DENIED" in outsider.statuses, outsider.output


def test_a_user_not_listed_is_refused_over_smbprotocol(served):
    served.apply(SmbShareSpec("mine", str(served.share_dir()), users=("alice",)))
    bob = smbprotocol_session(served.port, "bob", PASSWORDS["bob"])
    with bob as cache, pytest.raises(SMBOSError, match="STATUS_ACCESS_DENIED"):
        list_dir(cache, served.port, "mine")


def test_a_write_to_a_read_only_share_is_refused_and_reading_still_works(served, tmp_path):
    served_dir = served.share_dir()
    (served_dir / "there.txt").write_text("already here\n")
    served.apply(SmbShareSpec("ro", str(served_dir), read_only=True))
    (tmp_path / "new.txt").write_text("should not arrive\n")
    put = served.client.run(
        "ro", "put new.txt", user="alice", password=PASSWORDS["alice"], cwd=tmp_path
    )
    assert "NT_STATUS_ACCESS_DENIED" in put.statuses, put.output
    assert not (served_dir / "new.txt").exists()
    with smbprotocol_session(served.port, "alice", PASSWORDS["alice"]) as cache:
        with pytest.raises(SMBOSError, match="STATUS_ACCESS_DENIED"):
            write_file(cache, served.port, "ro", "other.txt", b"no")
        assert read_file(cache, served.port, "ro", "there.txt") == b"already here\n"
    assert sorted(p.name for p in served_dir.iterdir()) == ["there.txt"]


def test_guests_get_in_only_where_guest_access_is_on(served, tmp_path):
    served.apply(
        SmbShareSpec("public", str(served.share_dir()), guest_ok=True),
        SmbShareSpec("private", str(served.share_dir())),
    )
    assert served.client.run("public", "ls").ok  # anonymous
    assert served.client.run("public", "ls", user="stranger", password="whatever").ok
    refused = served.client.run("private", "ls")
    assert "NT_STATUS_ACCESS_DENIED" in refused.statuses, refused.output


def test_without_a_guest_share_an_unknown_user_is_refused(served):
    served.apply(SmbShareSpec("private", str(served.share_dir())))
    stranger = served.client.run("private", "ls", user="stranger", password="whatever")
    assert stranger.statuses == ["NT_STATUS_LOGON_FAILURE"], stranger.output
    anonymous = served.client.run("private", "ls")
    assert not anonymous.ok
    assert set(anonymous.statuses) <= {"NT_STATUS_ACCESS_DENIED", "NT_STATUS_LOGON_FAILURE"}


def test_a_disabled_user_is_refused_until_enabled_again(served):
    share = SmbShareSpec("data", str(served.share_dir()))
    served.apply(share)
    carol = {"user": "carol", "password": PASSWORDS["carol"]}
    refused = served.client.run("data", "ls", **carol)
    assert refused.statuses == ["NT_STATUS_ACCOUNT_DISABLED"], refused.output
    served.apply(share, accounts=make_accounts(served.hashes, disabled=()))
    assert served.client.run("data", "ls", **carol).ok


def test_a_user_without_a_password_cannot_log_in(served):
    served.apply(SmbShareSpec("data", str(served.share_dir())))
    result = served.client.run("data", "ls", user="dave", password="")
    assert result.statuses == ["NT_STATUS_LOGON_FAILURE"], result.output


def test_a_user_whose_hash_is_removed_loses_access(served):
    share = SmbShareSpec("data", str(served.share_dir()))
    served.apply(share)
    alice = {"user": "alice", "password": PASSWORDS["alice"]}
    assert served.client.run("data", "ls", **alice).ok
    without_alice = {k: v for k, v in served.hashes.items() if k != "alice"}
    report = served.apply(share, accounts=make_accounts(without_alice))
    assert report.passdb_changed
    assert not report.config_changed
    assert served.client.run("data", "ls", **alice).statuses == ["NT_STATUS_LOGON_FAILURE"]


def test_snapshots_show_as_previous_versions_with_their_old_content(served, tmp_path):
    served_dir = served.share_dir()
    (served_dir / "report.txt").write_text("today\n")
    snapshot = served_dir / ".zfs" / "snapshot" / "auto-2024-05-01_13-00"
    snapshot.mkdir(parents=True)
    (snapshot / "report.txt").write_text("back then\n")
    served.apply(SmbShareSpec("docs", str(served_dir), shadow_copy=True))
    alice = {"user": "alice", "password": PASSWORDS["alice"], "cwd": tmp_path}
    info = served.client.run("docs", "allinfo report.txt", **alice)
    assert info.ok, info.output
    assert "@GMT-2024.05.01-13.00.00" in info.output
    old = served.client.run("docs", r"get @GMT-2024.05.01-13.00.00\report.txt old.txt", **alice)
    assert old.ok, old.output
    assert (tmp_path / "old.txt").read_text() == "back then\n"


def test_manual_and_same_minute_snapshots_are_previous_versions_too(served, tmp_path):
    served_dir = served.share_dir()
    (served_dir / "report.txt").write_text("today\n")
    versions = {
        "auto-2024-05-01_13-00": "@GMT-2024.05.01-13.00.00",
        "auto-2024-05-01_13-00-2": None,  # the same minute: listed once, under that time
        "manual-2024-05-02_08-30-15": "@GMT-2024.05.02-08.30.00",
        "before-upgrade": None,  # a name with no time: Windows cannot list it
    }
    for name in versions:
        snapshot = served_dir / ".zfs" / "snapshot" / name
        snapshot.mkdir(parents=True)
        (snapshot / "report.txt").write_text(f"{name}\n")
    served.apply(SmbShareSpec("docs", str(served_dir), shadow_copy=True))
    alice = {"user": "alice", "password": PASSWORDS["alice"], "cwd": tmp_path}
    info = served.client.run("docs", "allinfo report.txt", **alice)
    assert info.ok, info.output
    listed = sorted(set(re.findall(r"@GMT-[\d.]+-[\d.]+", info.output)))
    assert listed == ["@GMT-2024.05.01-13.00.00", "@GMT-2024.05.02-08.30.00"], info.output
    manual = r"get @GMT-2024.05.02-08.30.00\report.txt manual.txt"
    assert served.client.run("docs", manual, **alice).ok
    assert (tmp_path / "manual.txt").read_text() == "manual-2024-05-02_08-30-15\n"


def smbd_working_in(folder: str) -> list[int]:
    """The smbd processes whose working directory is `folder` (a client is connected there)."""
    found = []
    for proc in os.listdir("/proc"):
        if proc.isdigit():
            try:
                comm = Path(f"/proc/{proc}/comm").read_text().strip()
                if comm == "smbd" and os.readlink(f"/proc/{proc}/cwd") == folder:
                    found.append(int(proc))
            except OSError:
                continue
    return found


def test_a_share_taken_away_lets_go_of_its_connected_clients(served):
    """A reload alone leaves a connected client's smbd in the folder (ZFS could not unmount
    it, e.g. to lock it): the engine closes the share's connections."""
    folder = served.share_dir()
    kept = SmbShareSpec("kept", str(served.share_dir()))
    served.apply(kept, SmbShareSpec("going", str(folder)))
    with smbprotocol_session(served.port, "alice", PASSWORDS["alice"]) as cache:
        write_file(cache, served.port, "going", "open.txt", b"held")
        assert smbd_working_in(str(folder)), "the connected client's smbd is not in the folder"
        report = served.apply(kept)
        assert report.action == "reloaded"
        assert smbd_working_in(str(folder)) == []
        with pytest.raises(SMBOSError, match="NETWORK_NAME_DELETED"):
            list_dir(cache, served.port, "going")
        assert list_dir(cache, served.port, "kept") == []

"""Engine choices that need no running smbd: modes, missing wrappers, extra accounts engines."""

from __future__ import annotations

import pytest

from nasui.lib.net import free_loopback_port
from sharing.accounts.engine.desired import Accounts
from sharing.smb.engine import wrappers
from sharing.smb.engine.desired import SmbGlobals, SmbState
from sharing.smb.engine.errors import NotConfigured, SmbEngineError, SmbUnavailable
from sharing.smb.engine.server import SmbEngine
from tests.smb.conftest import make_accounts


class RecordingAccounts:
    """An accounts engine that records what it was given."""

    name = "recording"

    def __init__(self) -> None:
        self.applied: list[Accounts] = []

    def apply(self, accounts: Accounts) -> bool:
        self.applied.append(accounts)
        return False


def test_an_unknown_mode_is_refused(tmp_path):
    with pytest.raises(SmbEngineError, match="unknown mode 'docker'"):
        SmbEngine(tmp_path, mode="docker")


def test_a_wrapped_engine_without_the_wrapper_libraries_names_their_packages(tmp_path, monkeypatch):
    monkeypatch.setattr(wrappers, "_installed", lambda library: library != wrappers.NSS_WRAPPER)
    with pytest.raises(SmbUnavailable, match="apt-get install libnss-wrapper"):
        SmbEngine(tmp_path / "run").is_running()


def test_an_unprivileged_wrapped_engine_also_needs_uid_wrapper(tmp_path, monkeypatch):
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    monkeypatch.setattr(wrappers, "_installed", lambda library: library != wrappers.UID_WRAPPER)
    with pytest.raises(SmbUnavailable, match="apt-get install libuid-wrapper"):
        SmbEngine(tmp_path / "run").is_running()


def test_run_by_root_a_wrapped_smbd_setuids_for_real(tmp_path, monkeypatch):
    monkeypatch.setattr("os.geteuid", lambda: 0)
    env = SmbEngine(tmp_path / "run").env()
    assert "libnss_wrapper.so" in env["LD_PRELOAD"]
    assert "uid_wrapper" not in env["LD_PRELOAD"]  # files made over SMB belong to their user
    assert "UID_WRAPPER" not in env


def test_a_system_engine_needs_no_wrapper(tmp_path, monkeypatch):
    monkeypatch.setattr(wrappers, "_installed", lambda library: False)
    engine = SmbEngine(tmp_path / "run", mode="system")
    assert not engine.is_running()
    assert "NSS_WRAPPER_PASSWD" not in engine.env()
    assert "wrapper" not in engine.env().get("LD_PRELOAD", "")


def test_start_before_any_apply_is_refused(tmp_path):
    with pytest.raises(NotConfigured):
        SmbEngine(tmp_path / "run").start()


@pytest.mark.smb
def test_a_given_accounts_engine_is_applied_besides_smbds_own_files(make_engine, nt_hashes):
    extra = RecordingAccounts()
    engine = make_engine(accounts=extra)
    accounts = make_accounts(nt_hashes)
    report = engine.apply(
        SmbState(globals=SmbGlobals(port=free_loopback_port()), accounts=accounts)
    )
    assert extra.applied == [accounts]
    assert report.accounts_changed
    assert "alice:x:1001:" in (engine.layout.accounts_dir / "passwd").read_text()

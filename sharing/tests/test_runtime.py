"""The runtime layer: which engine runs, and when the supervisor starts and re-applies it."""

from __future__ import annotations

import pytest

from sharing.iscsi import runtime
from sharing.iscsi.engine.lio import LioEngine
from sharing.iscsi.engine.tgt import TgtEngine
from sharing.iscsi.runtime import IscsiRuntime

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_engine(settings, tmp_path):
    """runtime.engine() is cached per process: clear it around each test."""
    settings.DATA_DIR = tmp_path
    runtime.engine.cache_clear()
    yield
    runtime.engine.cache_clear()


def test_lio_is_built_with_a_save_file_in_the_data_directory(settings, tmp_path, fresh_engine):
    settings.NASUI_ISCSI_ENGINE = "lio"
    engine = runtime.engine()
    assert isinstance(engine, LioEngine)
    assert engine.save_file == tmp_path / "lio" / "saveconfig.json"
    assert runtime.first_lun() == 0


def test_tgt_keeps_its_state_in_the_data_directory(settings, tmp_path, fresh_engine):
    settings.NASUI_ISCSI_ENGINE = "tgt"
    engine = runtime.engine()
    assert isinstance(engine, TgtEngine)
    assert engine.state_dir == tmp_path / "tgt"
    assert runtime.first_lun() == 1


def test_auto_picks_tgt_without_the_kernel_target(settings, monkeypatch):
    settings.NASUI_ISCSI_ENGINE = "auto"
    monkeypatch.setattr(runtime, "_lio_available", lambda: False)
    assert runtime.engine_choice() == "tgt"
    monkeypatch.setattr(runtime, "_lio_available", lambda: True)
    assert runtime.engine_choice() == "lio"


def test_the_first_check_applies_even_when_the_target_seems_up(fake_target, settings, tmp_path):
    # LIO's modules load at boot, so it "runs" with an empty configuration until applied
    settings.DATA_DIR = tmp_path
    assert IscsiRuntime().supervise() is None
    assert fake_target.applied == []
    assert (IscsiRuntime().supervise(first=True) or "").startswith("target started")
    assert len(fake_target.applied) == 1


def test_a_user_stop_wins_over_the_first_check_and_status(fake_target, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    IscsiRuntime().control("stop")
    fake_target.running = True  # a stopped LIO still has its modules loaded
    assert (IscsiRuntime().supervise(first=True) or "").startswith("left stopped")
    assert IscsiRuntime().status().running is False
    assert IscsiRuntime().status().actions == ["start"]
    IscsiRuntime().control("start")
    assert IscsiRuntime().status().running is True


def test_the_boot_step_fails_loudly_when_the_target_refuses(fake_target, settings, tmp_path):
    from django.core.management import CommandError, call_command

    settings.DATA_DIR = tmp_path
    fake_target.refuse = "backing store /dev/zvol/tank/vol: No such file or directory"
    with pytest.raises(CommandError, match="could not be started"):
        call_command("iscsi_service", "--once", "--wait", "0", "--interval", "0")
    assert len(fake_target.applied) == 1

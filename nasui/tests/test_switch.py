"""The one shape of a controllable service: the user's choice, the actions, the boot rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from nasui.lib.switch import ServiceSwitch, UnknownAction, check_action


@pytest.fixture
def boot(tmp_path: Path) -> Path:
    """A boot id file standing in for the kernel's; rewrite it to "reboot"."""
    path = tmp_path / "boot_id"
    path.write_text("boot-1\n")
    return path


@pytest.fixture
def switch(tmp_path: Path, boot: Path) -> ServiceSwitch:
    """A switch in a fresh directory, reading the test's boot id."""
    return ServiceSwitch(tmp_path / "svc", boot_id=boot)


class Calls(list[str]):
    """Records the stop and start callbacks in order."""

    def stop(self) -> None:
        """Record a stop."""
        self.append("stop")

    def start(self) -> None:
        """Record a start."""
        self.append("start")


def test_it_refuses_an_unknown_action_naming_the_actions(switch):
    with pytest.raises(UnknownAction, match="use start, stop or restart"):
        check_action("reload")
    calls = Calls()
    with pytest.raises(UnknownAction):
        switch.act("kill", stop=calls.stop, start=calls.start)
    assert calls == []


def test_restart_stops_then_starts_and_leaves_it_started(switch):
    calls = Calls()
    switch.act("restart", stop=calls.stop, start=calls.start)
    assert calls == ["stop", "start"]
    assert not switch.held_stopped()


def test_a_stop_is_recorded_before_the_service_stops(switch):
    seen: list[bool] = []
    switch.act("stop", stop=lambda: seen.append(switch.held_stopped()), start=lambda: None)
    assert seen == [True]
    assert switch.held_stopped()


def test_a_stop_holds_at_a_first_check_in_the_same_boot_even_when_enabled(switch):
    switch.act("stop", stop=lambda: None, start=lambda: None)
    assert switch.first_check(enabled=True) is False
    assert switch.held_stopped()


def test_after_a_reboot_an_enabled_service_starts_despite_an_old_stop(switch, boot):
    switch.act("stop", stop=lambda: None, start=lambda: None)
    boot.write_text("boot-2\n")
    assert switch.first_check(enabled=True) is True
    assert not switch.held_stopped()


def test_a_disabled_service_stays_stopped_at_boot_and_at_later_checks(switch):
    assert switch.first_check(enabled=False) is False
    assert switch.held_stopped()


def test_a_start_in_this_boot_holds_for_a_disabled_service_until_the_reboot(switch, boot):
    switch.first_check(enabled=False)
    switch.act("start", stop=lambda: None, start=lambda: None)
    assert switch.first_check(enabled=False) is True  # the supervisor restarted, same boot
    boot.write_text("boot-2\n")
    assert switch.first_check(enabled=False) is False


def test_the_first_check_gives_the_same_answer_when_retried(switch):
    assert switch.first_check(enabled=False) is False
    assert switch.first_check(enabled=False) is False
    switch.forget()
    assert switch.first_check(enabled=True) is True
    assert switch.first_check(enabled=True) is True


def test_an_old_stopped_flag_is_honoured_as_a_stop_of_this_boot(switch):
    switch.directory.mkdir(parents=True)
    (switch.directory / "stopped-by-user").touch()
    assert switch.held_stopped()
    assert switch.first_check(enabled=True) is False
    switch.act("start", stop=lambda: None, start=lambda: None)
    assert not (switch.directory / "stopped-by-user").exists()
    assert not switch.held_stopped()

"""A boot step or restart applies what users committed, never an older state read before a commit.

Each side runs in its own thread with its own database connection, as the web and the boot
steps are separate processes on the appliance.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections, transaction

from sharing.apply import configuration_lock, files_saved_and_applied
from sharing.iscsi import runtime
from sharing.iscsi.services.common import saved_and_applied
from sharing.models import AuthGroup, AuthMethod, IscsiSettings, SmbSettings
from sharing.smb import runtime as smb_runtime
from sharing.smb import selectors as smb_selectors

pytestmark = pytest.mark.django_db(transaction=True)


def save_during_boot_step(
    save: Callable[[Callable[[], None]], object],
    boot_step: Callable[[], object],
    started: threading.Event,
    committed: threading.Event,
    change: Callable[[], None],
) -> None:
    """`save` a `change` while `boot_step` runs in another thread.

    The step is let go once the change is written but not yet committed; the change waits
    until the step has `started` (and a moment more) before it commits and sets `committed`.
    """

    def step() -> None:
        try:
            boot_step()
        finally:
            connections.close_all()

    thread = threading.Thread(target=step)

    def written_then_held() -> None:
        change()
        transaction.on_commit(committed.set)
        thread.start()
        assert started.wait(10), "the boot step never started"
        time.sleep(0.3)  # room for a step that reads the database without waiting for the commit

    save(written_then_held)
    thread.join(10)
    assert not thread.is_alive()


def discovery_chap_on() -> None:
    """Turn discovery CHAP on (the desired state's discovery_chap)."""
    group = AuthGroup.objects.create(tag=7, user="boot", secret="Secret-123456")
    IscsiSettings.objects.filter(pk=1).update(
        discovery_auth_method=AuthMethod.CHAP, discovery_auth_group=group
    )


def test_the_iscsi_boot_step_applies_a_target_saved_while_it_started(
    fake_target, settings, tmp_path
):
    # Seen at an appliance's first boot: the step read the database before the wizard's commit
    # and applied that older state after the wizard's own apply, so the new target vanished.
    settings.DATA_DIR = tmp_path
    IscsiSettings.load()
    started, committed = threading.Event(), threading.Event()
    seen: list[tuple[bool, bool]] = []  # per apply: after the commit?, discovery CHAP on?
    plain_apply = fake_target.apply

    def apply(desired: Any) -> Any:
        seen.append((committed.is_set(), desired.discovery_chap is not None))
        return plain_apply(desired)

    fake_target.apply = apply
    fake_target.start = started.set
    boot_step = lambda: runtime.IscsiRuntime().supervise(first=True)  # noqa: E731
    save_during_boot_step(saved_and_applied, boot_step, started, committed, discovery_chap_on)
    # the change's own apply (before its commit), then the boot step's with the committed state
    assert seen == [(False, True), (True, True)]


class SmbDouble:
    """smbd as the boot step sees it: records (after the commit?, workgroup) per apply."""

    def __init__(self, started: threading.Event, committed: threading.Event) -> None:
        self.started, self.committed = started, committed
        self.seen: list[tuple[bool, str]] = []

    def apply(self, state: Any) -> None:
        self.seen.append((self.committed.is_set(), state.globals.workgroup))

    def is_running(self) -> bool:
        return True

    def engine(self) -> SmbDouble:
        self.started.set()  # the boot step's first call
        return self


def test_the_smb_boot_step_applies_settings_saved_while_it_started(settings, tmp_path, monkeypatch):
    settings.DATA_DIR = tmp_path
    settings.NASUI_NFS = "none"
    SmbSettings.load()
    started, committed = threading.Event(), threading.Event()
    smbd = SmbDouble(started, committed)
    monkeypatch.setattr(smb_runtime, "smb_engine", smbd.engine)

    def change() -> None:
        SmbSettings.objects.filter(pk=1).update(workgroup="HOME")

    def user_apply() -> None:  # the web's apply of the change, inside its transaction
        smbd.apply(smb_selectors.build_smb_state())

    monkeypatch.setattr(smb_runtime.SmbRuntime, "apply", lambda self: user_apply())
    boot_step = lambda: smb_runtime.SmbRuntime().supervise(first=True)  # noqa: E731
    save_during_boot_step(files_saved_and_applied, boot_step, started, committed, change)
    assert smbd.seen[-1] == (True, "HOME"), smbd.seen


def test_the_lock_is_reentrant_in_a_thread_and_exclusive_across_threads(settings, tmp_path):
    settings.DATA_DIR = tmp_path
    other_got_it = threading.Event()

    def other() -> None:
        with configuration_lock("iscsi"):
            other_got_it.set()

    with configuration_lock("iscsi"), configuration_lock("iscsi"):  # a restart inside a change
        thread = threading.Thread(target=other)
        thread.start()
        assert not other_got_it.wait(0.3)
    assert other_got_it.wait(5)
    thread.join(5)

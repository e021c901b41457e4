"""Sharing tests: a sandbox pool with a zvol, and an engine double for service-layer tests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pytest

from sharing import runtime as shared_runtime
from sharing.iscsi import runtime
from sharing.iscsi.engine.base import ChangeReport, Session
from sharing.iscsi.engine.desired import DesiredState
from sharing.iscsi.engine.errors import EngineFailure
from sharing.nfs.runtime import NfsRuntime
from sharing.smb import selectors as smb_selectors
from sharing.smb.engine.desired import SmbState
from sharing.smb.runtime import SmbRuntime
from tests.iscsi.live_tools import require_if_marked


@pytest.fixture(autouse=True)
def _live_tools(request: pytest.FixtureRequest) -> None:
    """Tests marked `iscsi` run tgtd and real initiators: skip without them (fail in CI)."""
    require_if_marked(request.node)


@dataclass
class RecordingEngine:
    """Stands in for tgt in unit tests of the service layer only: records what it was given."""

    name: str = "tgt"
    first_lun: int = 1
    running: bool = True
    refuse: str = ""
    applied: list[DesiredState] = field(default_factory=list)

    def start(self) -> None:
        self.running = True

    def stop(self) -> None:
        self.running = False

    def is_running(self) -> bool:
        return self.running

    def validate(self, desired: DesiredState) -> None:
        return None

    def apply(self, desired: DesiredState) -> ChangeReport:
        self.applied.append(desired)
        if self.refuse:
            raise EngineFailure(self.refuse)
        return ChangeReport(engine=self.name)

    def sessions(self) -> list[Session]:
        return []

    def refresh_lun_size(self, iqn: str, lun: int) -> ChangeReport:
        return ChangeReport(engine=self.name)

    @property
    def last(self) -> DesiredState:
        return self.applied[-1]


@pytest.fixture
def fake_target(monkeypatch, settings) -> RecordingEngine:
    """The service layer talks to this double instead of a real tgtd."""
    settings.NASUI_ISCSI_ENGINE = "tgt"
    double = RecordingEngine()
    monkeypatch.setattr(runtime, "engine", lambda: double)
    return double


@pytest.fixture
def zvol(tank) -> str:
    """A sparse 64 MiB zvol tank/vol with 4K blocks on the sandbox raidz1 pool `tank`."""
    from storage.datasets import services

    services.zvol_create(parent="tank", name="vol", size="64M", volblocksize=4096, sparse=True)
    return "tank/vol"


@dataclass
class RecordingFiles:
    """Stands in for the file servers: records each applied SMB state, refuses on demand."""

    applied: list[SmbState] = field(default_factory=list)
    refuse: str = ""

    def apply(self) -> None:
        if self.refuse:
            raise shared_runtime.ApplyError(self.refuse)
        self.applied.append(smb_selectors.build_smb_state())

    @property
    def last(self) -> SmbState:
        return self.applied[-1]


@pytest.fixture
def fake_files(monkeypatch) -> RecordingFiles:
    """The accounts and SMB services talk to this double instead of a real smbd."""
    double = RecordingFiles()
    monkeypatch.setattr(SmbRuntime, "apply", lambda self: double.apply())
    monkeypatch.setattr(SmbRuntime, "restore", lambda self: None)
    monkeypatch.setattr(NfsRuntime, "apply", lambda self: None)
    monkeypatch.setattr(NfsRuntime, "restore", lambda self: None)
    # A stand-in for Samba's tool: the same password always gives the same 32 hex digits.
    fake_hash = lambda user, password: hashlib.sha256(password.encode()).hexdigest()[:32].upper()  # noqa: E731
    monkeypatch.setattr(shared_runtime, "_nt_hashers", [fake_hash])
    return double

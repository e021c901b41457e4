"""Fixtures for the monitoring tests: fake sources over the captured fixture files."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitoring.alerting.selectors import registry
from monitoring.metrics.engine import Sources
from monitoring.metrics.engine.alerts import Alert

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def proc_dir(tmp_path: Path) -> Path:
    """A /proc look-alike holding the host's captured files."""
    for name in ("stat", "meminfo", "vmstat", "loadavg"):
        (tmp_path / name).write_text((FIXTURES / f"host_{name}.txt").read_text())
    return tmp_path


@pytest.fixture
def host_sources(proc_dir: Path) -> Sources:
    """This host as the collectors see it: /proc, no ZFS."""
    return Sources(proc=str(proc_dir), arcstats=str(proc_dir / "no-arcstats"))


@pytest.fixture
def fake_source(monkeypatch: pytest.MonkeyPatch) -> list[Alert]:
    """The only registered alert source: it reports whatever the test puts in the list."""
    current: list[Alert] = []
    monkeypatch.setattr(registry, "SOURCES", {"fake": lambda: list(current)})
    return current

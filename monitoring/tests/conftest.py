"""Fixtures for the monitoring tests: fake sources over the captured fixture files."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitoring.metrics.engine import Sources

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

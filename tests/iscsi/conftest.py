"""iSCSI fixtures: captured tgt output, and a private tgtd that is always stopped."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from nasui.lib.net import free_loopback_port
from sharing.iscsi.engine.desired import PortalSpec
from sharing.iscsi.engine.tgt import TgtEngine
from tests.iscsi.live_tools import require_if_marked, require_tools

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker even where pyproject does not (it is harmless twice)."""
    config.addinivalue_line("markers", "iscsi: talks to a real tgtd with real initiators")


@pytest.fixture(autouse=True)
def _live_tools(request: pytest.FixtureRequest) -> None:
    """Tests marked `iscsi` run tgtd and real initiators: skip without them (fail in CI)."""
    require_if_marked(request.node)


@pytest.fixture
def fixture_text() -> Callable[[str], str]:
    """Read a captured fixture file by name."""

    def read(name: str) -> str:
        return (FIXTURES / name).read_text()

    return read


@pytest.fixture
def portal() -> PortalSpec:
    """A loopback portal on a free port."""
    return PortalSpec("127.0.0.1", free_loopback_port())


@pytest.fixture
def tgt(tmp_path: Path, portal: PortalSpec) -> Iterator[TgtEngine]:
    """A started private tgtd on the loopback portal; stopped and cleaned up whatever happens."""
    require_tools("tgtd", "tgtadm")
    engine = TgtEngine(tmp_path / "state", portals=[portal])
    try:
        engine.start()
        yield engine
    finally:
        try:
            engine.stop()
        finally:
            shutil.rmtree(engine.run_dir, ignore_errors=True)


@pytest.fixture
def make_disk(tmp_path: Path) -> Callable[..., Path]:
    """Create a sparse backing file of a given size in the test's directory."""

    def make(name: str, size: int = 64 << 20) -> Path:
        path = tmp_path / name
        with path.open("wb") as handle:
            handle.truncate(size)
        return path

    return make

"""A missing tgtd or initiator skips the live tests on a workstation but fails them in CI."""

from __future__ import annotations

import shutil

import pytest

from tests.iscsi import live_tools


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch):
    """Make `shutil.which` find every tool except the named ones."""

    def hide(*tools: str) -> None:
        """Hide these tools; every other live tool is found in /usr/bin."""
        found = {tool: f"/usr/bin/{tool}" for tool in live_tools.LIVE_TOOLS}

        def which(name: str, mode: int = 0, path: str | None = None) -> str | None:
            """`shutil.which` on the pretend machine."""
            return None if name in tools else found.get(name)

        monkeypatch.setattr(shutil, "which", which)

    return hide


def test_nothing_happens_when_every_tool_is_there(without, monkeypatch):
    without()
    monkeypatch.setenv("CI", "true")
    live_tools.require_tools()


def test_outside_ci_a_missing_tgtd_skips(without, monkeypatch):
    without("tgtd")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"tgtd not installed.*apt-get install tgt"):
        live_tools.require_tools()


@pytest.mark.parametrize("value", ["true", "1", "yes"])
def test_in_ci_a_missing_tgtd_fails_naming_the_package(without, monkeypatch, value):
    without("tgtd")
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install tgt\b.*not skip"):
        live_tools.require_tools()


def test_in_ci_missing_clients_fail_naming_their_packages(without, monkeypatch):
    without("qemu-io", "iscsi-ls")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="apt-get install libiscsi-bin qemu-utils"):
        live_tools.require_tools()


@pytest.mark.parametrize("value", ["", "0", "false", "no"])
def test_a_ci_variable_saying_no_is_not_ci(without, monkeypatch, value):
    without("tgtd")
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.skip.Exception):
        live_tools.require_tools()


def test_tools_in_sbin_count_when_sbin_is_not_on_path(monkeypatch):
    seen: list[str | None] = []

    def which(name: str, mode: int = 0, path: str | None = None) -> str | None:
        """tgtd is in /usr/sbin only: found when that is searched."""
        seen.append(path)
        return "/usr/sbin/tgtd" if path and "/usr/sbin" in path.split(":") else None

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setattr(shutil, "which", which)
    assert live_tools.missing_tools(("tgtd",)) == []
    assert seen == ["/usr/bin:/bin:/usr/sbin:/sbin"]


def test_only_tests_marked_iscsi_require_the_tools(without, monkeypatch, request):
    without("tgtd")
    monkeypatch.setenv("CI", "true")
    live_tools.require_if_marked(request.node)  # this test is not marked: nothing to require
    marked = pytest.Function.from_parent(request.node.parent, name=request.node.name)
    marked.add_marker(pytest.mark.iscsi)
    with pytest.raises(pytest.fail.Exception, match="tgtd"):
        live_tools.require_if_marked(marked)

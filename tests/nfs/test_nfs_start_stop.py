"""NfsEngine.start and stop run the server's unit commands and report a failure with its words."""

from __future__ import annotations

from pathlib import Path

import pytest

from sharing.nfs.engine.errors import NfsCommandFailed
from sharing.nfs.engine.server import START, STOP, NfsEngine


def engine(tmp_path: Path, *, status: int = 0) -> NfsEngine:
    """An engine whose start and stop commands are a script that logs its argument."""
    tool = tmp_path / "unit"
    tool.write_text(
        f'#!/bin/sh\necho "$1" >> "{tmp_path}/log"\necho "unit said no" >&2\nexit {status}\n'
    )
    tool.chmod(0o755)
    return NfsEngine(
        tmp_path / "nasui.exports",
        exportfs="/bin/true",
        nfs_conf=tmp_path / "nasui.conf",
        start=(str(tool), "start"),
        stop=(str(tool), "stop"),
        proc_nfsd=tmp_path / "nfsd",
    )


def test_the_defaults_drive_the_nfs_server_unit():
    assert START == ("systemctl", "start", "nfs-server.service")
    assert STOP == ("systemctl", "stop", "nfs-server.service")


def test_start_and_stop_run_their_commands(tmp_path: Path):
    nfs = engine(tmp_path)
    nfs.start()
    nfs.stop()
    assert (tmp_path / "log").read_text().split() == ["start", "stop"]


def test_a_failed_start_says_what_the_command_said(tmp_path: Path):
    with pytest.raises(NfsCommandFailed, match=r"starting the NFS server failed.*unit said no"):
        engine(tmp_path, status=1).start()

"""Helpers shared by the VM tests (imported as `vmhelpers`; tests/vm is on sys.path)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

# The VM's blank disks carry these serials (scripts/zfsvm.sh): nothing else is ever touched.
SERIAL_PREFIX = "NASUI"
OUT = Path(os.environ.get("NASUI_VM_OUT", "/mnt/out"))
ACK_WAIT, ANSWER_WAIT = 120.0, 600.0


class DiskPool:
    """Hands out free disks and destroys every pool made with them afterwards."""

    def __init__(self, engine: CliZfsEngine, disks: list[str]) -> None:
        self.engine = engine
        self.free = list(disks)
        self.used: list[str] = []
        self.pools: list[str] = []

    def take(self, count: int) -> list[str]:
        """Reserve `count` disks."""
        assert len(self.free) >= count, f"need {count} disks, {len(self.free)} free"
        taken, self.free = self.free[:count], self.free[count:]
        self.used += taken
        return taken

    def create(self, name: str, layout: PoolLayout, **kwargs: object) -> str:
        """Create a pool through the engine and remember to destroy it."""
        self.pools.append(name)
        self.engine.create_pool(name, layout, **kwargs)  # type: ignore[arg-type]
        return name


def destroy_quietly(name: str) -> None:
    """Best-effort cleanup: a pool left behind would hold its disks for later tests."""
    subprocess.run(["zpool", "destroy", "-f", name], capture_output=True, timeout=120, check=False)


def wipe(disks: list[str]) -> None:
    """Clear ZFS labels and partition tables so later tests get blank disks."""
    for disk in disks:
        # whole-disk vdevs live on partition 1 (partition 9 is a reserve): clear those first
        parts = sorted(str(p) for p in Path("/dev").glob(Path(disk).name + "?*"))
        for dev in [*parts, disk]:
            subprocess.run(["zpool", "labelclear", "-f", dev], capture_output=True, check=False)
        subprocess.run(["wipefs", "-a", *parts, disk], capture_output=True, check=False)
    subprocess.run(["udevadm", "settle", "-t", "30"], capture_output=True, check=False)


def sync_pool(engine: CliZfsEngine, pool: str) -> None:
    """Flush dirty data so space figures reflect what was written."""
    os.sync()
    engine.run(["zpool", "sync", pool])


def wait_for(check: Callable[[], bool], timeout: float = 120.0, step: float = 0.5) -> bool:
    """Poll until check() is true or the timeout passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return check()


def ask_host(
    name: str,
    checks: list[dict[str, Any]],
    port_key: str,
    answer_wait: float = ANSWER_WAIT,
) -> dict[str, dict[str, Any]]:
    """Hand checks to the host helper (tests/vm/host_checks.py); wait, bounded, for results.

    `port_key` names the forwarded port the checks need in the helper's host_checks.json.
    """
    info = OUT / "host_checks.json"
    if not info.exists() or json.loads(info.read_text()).get(port_key) is None:
        pytest.fail(f"no host helper with {port_key}: scripts/zfsvm.sh forwards it")
    tmp = OUT / f"host_req_{name}.tmp"
    tmp.write_text(json.dumps({"checks": checks}))
    tmp.rename(OUT / f"host_req_{name}.json")
    if not wait_for((OUT / f"host_ack_{name}").exists, timeout=ACK_WAIT):
        pytest.fail(f"the host helper did not pick up round {name!r} within {ACK_WAIT:.0f}s")
    result = OUT / f"host_res_{name}.json"
    if not wait_for(result.exists, timeout=answer_wait, step=1.0):
        pytest.fail(f"the host helper did not answer round {name!r} within {answer_wait:.0f}s")
    answers: dict[str, dict[str, Any]] = json.loads(result.read_text())
    for key, res in answers.items():
        print(f"[host {name}/{key}] {'PASS' if res['ok'] else 'FAIL'}: {res['detail']}")
    return answers


def assert_all_ok(answers: dict[str, dict[str, Any]]) -> None:
    """Every host check passed (else show what the clients said)."""
    bad = {k: f"{v['detail']} / rc={v['rc']} / {v['output'][-1500:]}" for k, v in answers.items()
           if not v["ok"]}  # fmt: skip
    assert not bad, json.dumps(bad, indent=1)

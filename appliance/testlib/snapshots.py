"""The periodic snapshot task the appliance test configures, and the snapshots it makes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from appliance.testlib.config import ResultDict
from appliance.testlib.panel import api, rows
from appliance.testlib.poll import poll
from appliance.testlib.vm import VM

DATASET = "tank/family"
EVERY_MINUTE = {"minutes": "*", "hours": "*", "days_of_week": "*"}


def task_snapshots(vm: VM, state: ResultDict) -> list[dict[str, Any]]:
    """The snapshots of DATASET the test's task made, as the API lists them."""
    status, body = api(vm, state).api("GET", f"/api/storage/snapshots/?dataset={DATASET}")
    assert status == 200, body
    found = rows(body)
    return [row for row in found if row.get("task") == state["snapshot_task"]]


def made_since(vm: VM, state: ResultDict, since: datetime, timeout: float) -> list[dict[str, Any]]:
    """Wait until the task has made a snapshot after `since` (aware); those snapshots."""

    def newer() -> list[dict[str, Any]]:
        taken = task_snapshots(vm, state)
        return [row for row in taken if datetime.fromisoformat(row["created"]) > since]

    return poll(newer, bool, timeout, step=5)

"""What a new owner does first on a freshly booted appliance, through the login page and the API:
choose a password of their own, make an API token, build a pool on the blank disks."""

from __future__ import annotations

import re

from appliance.testlib.config import DISKS, OWN_PASSWORD, ResultDict
from appliance.testlib.panel import api, login, rows
from appliance.testlib.vm import VM


def first_login(vm: VM, state: ResultDict) -> None:
    """Log in with the console's password (state["password"]), replace it as the panel asks
    at once, then make a token on /settings/tokens/ (state["token"])."""
    client = login(vm, state)
    status, page = client.request("GET", "/settings/")
    assert 'data-testid="first-password"' in page, "the first login did not ask for a password"
    own = {"old_password": state["password"], "new_password1": OWN_PASSWORD}
    status, page = client.form("/settings/password/", {**own, "new_password2": OWN_PASSWORD})
    assert status == 200, page[-500:]
    assert "the one on the console no longer works" in page, page[-800:]
    state["password"] = OWN_PASSWORD
    status, page = client.request("GET", "/settings/")
    assert status == 200, "not logged in"
    assert 'name="password"' not in page, "not logged in"
    status, page = client.form("/settings/tokens/", {"name": "appliance test"})
    assert status == 200, page[-500:]
    token = re.search(r'id="new-token-key">([^<]+)<', page)
    assert token, "no token on the page"
    state["token"] = token.group(1).strip()


def make_pool(vm: VM, state: ResultDict, name: str) -> None:
    """A raidz1 pool on the VM's blank disks through the API (a job), ONLINE."""
    client = api(vm, state)
    status, disks = client.api("GET", "/api/storage/disks/")
    assert status == 200, disks
    found = rows(disks)
    blank = [d["name"] for d in found if str(d.get("serial", "")).startswith("NASUIDISK")]
    assert len(blank) == DISKS, found
    payload = {"name": name, "layout": "raidz1", "disks": blank}
    status, job = client.api("POST", "/api/storage/pools/", payload)
    assert status in (200, 201, 202), job
    # followed through the event stream (nginx, nasui-events), then read back from the API
    events = client.follow_job(job)
    assert [e["status"] for e in events][-1] == "succeeded", events
    assert events[0]["status"] in ("pending", "running"), events
    done = client.wait_job(job)
    assert done["status"] == "succeeded", done
    status, pool = client.api("GET", f"/api/storage/pools/{name}/")
    assert status == 200, pool
    assert pool["health"] == "ONLINE", pool

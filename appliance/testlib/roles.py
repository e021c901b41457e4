"""Panel users with roles on the booted appliance: a read-only user made through the API
before a boot, who set up two-factor sign-in (codes from Debian's oathtool), keeps her role
and her code after it (and after the update and a restore): her token reads, every change is
refused, the users list says she signs in with a code. The checks ride on the boots the lane
makes anyway; she signs in twice only (a login hashes the password, slow under the emulator)."""

from __future__ import annotations

import re
import subprocess

from appliance.testlib.panel import Client

NAME, PASSWORD = "gran", "gran's long read-only passphrase"  # the lane's own test password


def make_reader(client: Client) -> str:
    """A read-only panel user, made by the administrator's token; her own token."""
    body = {"username": NAME, "password": PASSWORD, "role": "readonly"}
    status, made = client.api("POST", "/api/access/users/", body)
    assert status == 201, made
    assert made["role"] == "readonly", made
    reader = Client(client.base)
    status, answer = reader.api(
        "POST", "/api/tokens/", {"username": NAME, "password": PASSWORD, "name": "lane"}
    )
    assert status == 201, answer
    set_up_two_factor(client.base)
    return str(answer["token"])


def set_up_two_factor(base: str) -> None:
    """She signs in to the pages and turns two-factor sign-in on with her app's first code."""
    browser = Client(base)
    status, _ = browser.request("GET", "/login/")
    assert status == 200
    status, page = browser.form("/login/", {"username": NAME, "password": PASSWORD})
    assert status == 200, page[-500:]
    status, page = browser.form("/access/two-factor/start/", {})
    assert status == 200, page[-500:]
    found = re.search(r'data-testid="secret">(\w+)<', page)
    assert found, page[-1500:]
    code = subprocess.run(["oathtool", "--totp", "-b", found.group(1)], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    status, page = browser.form("/access/two-factor/confirm/", {"code": code})
    assert status == 200, page[-500:]
    assert page.count('data-testid="recovery-codes"') == 1, page[-1500:]


def check_reader(client: Client, token: str) -> None:
    """Her token reads the pool; a snapshot she asks for is refused with her role's rule."""
    reader = Client(client.base)
    reader.token = token
    status, pool = reader.api("GET", "/api/storage/pools/tank/")
    assert status == 200, pool
    status, users = reader.api("GET", "/api/access/users/")
    assert status == 200, users
    want = {"username": NAME, "role": "readonly", "two_factor": True}
    assert want.items() <= _row(users, NAME).items(), users
    status, refused = reader.api(
        "POST", "/api/storage/snapshots/", {"dataset": "tank", "name": "by-gran"}
    )
    assert status == 403, refused
    assert "read-only" in refused["detail"], refused


def _row(users: dict[str, object], name: str) -> dict[str, object]:
    rows = users.get("results", [])
    assert isinstance(rows, list), users
    return next((row for row in rows if row.get("username") == name), {})

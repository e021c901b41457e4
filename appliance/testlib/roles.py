"""Panel users with roles on the booted appliance: a read-only user made through the API
before a boot keeps her role after it (and after the update): her token reads, every change
is refused. The checks ride on the boots the lane makes anyway; her token is made once (a
login hashes the password, which takes long under the emulator)."""

from __future__ import annotations

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
    return str(answer["token"])


def check_reader(client: Client, token: str) -> None:
    """Her token reads the pool; a snapshot she asks for is refused with her role's rule."""
    reader = Client(client.base)
    reader.token = token
    status, pool = reader.api("GET", "/api/storage/pools/tank/")
    assert status == 200, pool
    status, users = reader.api("GET", "/api/access/users/")
    assert status == 200, users
    assert {"username": NAME, "role": "readonly"}.items() <= _row(users, NAME).items(), users
    status, refused = reader.api(
        "POST", "/api/storage/snapshots/", {"dataset": "tank", "name": "by-gran"}
    )
    assert status == 403, refused
    assert "read-only" in refused["detail"], refused


def _row(users: dict[str, object], name: str) -> dict[str, object]:
    rows = users.get("results", [])
    assert isinstance(rows, list), users
    return next((row for row in rows if row.get("username") == name), {})

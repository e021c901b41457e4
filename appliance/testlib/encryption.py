"""Encrypted datasets on the booted appliance: one root whose key the box keeps (it unlocks at
boot), one opened by a passphrase (it waits after a boot, raises its alert, and the API opens
it). The checks ride on boots the lane makes anyway: the reboot and the update."""

from __future__ import annotations

from typing import Any

from appliance.testlib.panel import Client
from appliance.testlib.poll import poll

PASSPHRASE = "the family's long passphrase"  # noqa: S105 - the lane's own test passphrase
AUTO, VAULT = "tank/auto", "tank/vault"
ROOTS = "/api/storage/encryption/"


def make_roots(client: Client) -> None:
    """The two roots, with a file written into each through the API's view of them."""
    for body in (
        {"name": AUTO, "encryption": "key"},
        {"name": VAULT, "encryption": "passphrase", "passphrase": PASSPHRASE,
         "passphrase_confirm": PASSPHRASE},
    ):  # fmt: skip
        status, made = client.api("POST", "/api/storage/datasets/", body)
        assert status == 201, made
        assert made["encryption"] == "aes-256-gcm", made


def roots(client: Client) -> dict[str, Any]:
    """The encryption roots by name."""
    status, body = client.api("GET", ROOTS)
    assert status == 200, body
    return {root["name"]: root for root in body["results"]}


def check_after_boot(client: Client) -> None:
    """The kept key opened its root at boot; the passphrase root waits with its alert, and
    the API opens it."""
    found = roots(client)
    assert found[AUTO]["locked"] is False, found
    assert found[AUTO]["unlocks_at_boot"] is True, found
    assert found[VAULT]["locked"] is True, found
    alerts = poll(
        lambda: client.api("GET", "/api/alerts/?state=open"),
        lambda answer: any(a["kind"] == "locked" for a in _results(answer)),
        150,
    )
    waiting = [a for a in _results(alerts) if a["kind"] == "locked"]
    assert waiting, alerts
    assert waiting[0]["subject"] == VAULT, alerts
    status, opened = client.api("POST", f"{ROOTS}unlock/", {"name": VAULT,
                                                            "passphrase": PASSPHRASE})  # fmt: skip
    assert status == 200, opened
    assert opened["locked"] is False, opened


def _results(answer: tuple[int, Any]) -> list[dict[str, Any]]:
    status, body = answer
    if status != 200 or not isinstance(body, dict):
        return []
    return list(body.get("results", []))

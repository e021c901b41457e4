"""The SSH connection API under /api/replication/: the services' rules, each error on its field,
and never the private key."""

from __future__ import annotations

import pytest

from nasui.lib.net import free_loopback_port
from replication.connections.engine import keys
from replication.models import SshConnection
from replication.tests.helpers import shows_no_secret

pytestmark = pytest.mark.django_db
JSON = "application/json"
BASE = "/api/replication/connections/"


@pytest.fixture
def api(admin_client):
    return admin_client


def test_create_answers_the_public_key_and_the_pinned_fingerprint(api, sshd):
    made = api.post(BASE, {"name": "backup", "host": "127.0.0.1", "port": sshd.port}, JSON)
    assert made.status_code == 201
    body = made.json()
    assert body["host_key_fingerprints"] == [keys.fingerprint(sshd.host_key_blob)]
    assert body["public_key"].startswith("ssh-ed25519 ")
    assert body["user"] == "root"
    assert body["authorize_command"].endswith(" >> ~root/.ssh/authorized_keys")
    assert (body["checked_at"], body["last_error"]) == (None, "")
    assert "private_key" not in body
    assert shows_no_secret(made.content.decode(), SshConnection.objects.get())


def test_no_answer_carries_the_private_key(api, connection):
    listed = api.get(BASE)
    one = api.get(f"{BASE}{connection.pk}/")
    assert listed.json()["count"] == 1
    for response in (listed, one, api.get("/api/schema/", HTTP_ACCEPT="application/json")):
        assert response.status_code == 200
        assert shows_no_secret(response.content.decode(), connection)
        assert "private_key" not in response.content.decode()


def test_check_succeeds_once_the_key_is_authorized(api, authorized):
    checked = api.post(f"{BASE}{authorized.pk}/check/")
    assert checked.status_code == 200
    assert checked.json()["checked_at"] is not None
    assert checked.json()["last_error"] == ""


def test_a_changed_host_key_is_a_400_naming_both_fingerprints(api, authorized, sshd):
    pinned = keys.fingerprint(sshd.host_key_blob)
    sshd.restart(new_host_key=True)
    refused = api.post(f"{BASE}{authorized.pk}/check/")
    assert refused.status_code == 400
    said = refused.json()["detail"]
    assert pinned in said
    assert keys.fingerprint(sshd.host_key_blob) in said
    assert api.get(f"{BASE}{authorized.pk}/").json()["last_error"] == said


def test_repin_then_check_succeeds(api, authorized, sshd):
    sshd.restart(new_host_key=True)
    offered = keys.fingerprint(sshd.host_key_blob)
    wrong = api.post(f"{BASE}{authorized.pk}/repin/", {"fingerprints": ["SHA256:x"]}, JSON)
    assert wrong.status_code == 400
    repinned = api.post(f"{BASE}{authorized.pk}/repin/", {"fingerprints": [offered]}, JSON)
    assert repinned.status_code == 200
    assert repinned.json()["host_key_fingerprints"] == [offered]
    assert api.post(f"{BASE}{authorized.pk}/check/").status_code == 200


def test_nothing_listening_is_a_400_on_host(api):
    port = free_loopback_port()
    refused = api.post(BASE, {"name": "gone", "host": "127.0.0.1", "port": port}, JSON)
    assert refused.status_code == 400
    assert refused.json()["fields"] == {
        "host": [f"No SSH server answered at 127.0.0.1 port {port}."]
    }
    assert not SshConnection.objects.exists()


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "bad name"}, "name"),
        ({"host": "-oProxyCommand=x"}, "host"),
        ({"port": 70000}, "port"),
        ({"port": 0}, "port"),
        ({"user": "-x"}, "user"),
    ],
)
def test_a_bad_field_is_a_400_naming_it_and_changes_nothing(api, values, field):
    body = {"name": "box", "host": "127.0.0.1", "port": 22, "user": "root", **values}
    refused = api.post(BASE, body, JSON)
    assert refused.status_code == 400
    assert list(refused.json()["fields"]) == [field]
    assert not SshConnection.objects.exists()


def test_patch_renames_and_refuses_another_address(api, connection):
    renamed = api.patch(f"{BASE}{connection.pk}/", {"name": "offsite"}, JSON)
    assert renamed.status_code == 200
    assert renamed.json()["name"] == "offsite"
    moved = api.patch(f"{BASE}{connection.pk}/", {"host": "192.0.2.1"}, JSON)
    assert moved.status_code == 400
    assert list(moved.json()["fields"]) == ["host"]
    assert SshConnection.objects.get().host == "127.0.0.1"
    assert api.put(f"{BASE}{connection.pk}/", {"name": "x"}, JSON).status_code == 405


def test_delete(api, connection):
    assert api.delete(f"{BASE}{connection.pk}/").status_code == 204
    assert not SshConnection.objects.exists()
    assert api.get(f"{BASE}{connection.pk}/").status_code == 404

"""Pairing with another nasui: its panel authorizes this box's key for SSH after checking an
administrator's name and password, and names its SSH user, port and host keys; this box pins
them only if its own scan of that SSH server agrees.

"The other nasui" is this same panel served by pytest-django's live server, its SSH side a
real OpenSSH server on loopback (replication/tests/sshd.py): the whole pairing runs as between
two boxes, over real HTTP and real SSH.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from replication.connections.engine import authorized, keys, pairing
from replication.connections.engine.authorized import BadKey
from replication.models import SshConnection
from replication.tests.sshd import Sshd

JSON = "application/json"
PAIR = "/api/replication/connections/pair/"


@pytest.fixture
def other_side(settings, sshd: Sshd, tmp_path: Path) -> Sshd:
    """This panel answers pairings as the other nasui would, for the loopback sshd."""
    settings.NASUI_AUTHORIZED_KEYS = sshd.folder / "authorized_keys"
    settings.NASUI_SSH_HOST_KEYS = str(sshd.folder / "host_key.pub")
    settings.NASUI_SSH_PORT = sshd.port
    return sshd


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


# -- the engine ----------------------------------------------------------------------------


def test_a_key_is_added_once_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "ssh" / "authorized_keys"
    public = keys.generate("x").public
    assert authorized.add_key(path, public, "nasui@box-1") is True
    assert authorized.add_key(path, public, "nasui@box-1") is False
    assert lines(path) == [f"{' '.join(public.split()[:2])} nasui@box-1"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


@pytest.mark.parametrize(
    "line",
    [
        "",
        "hello world",
        'command="rm -rf /" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA',
        "ssh-ed25519 AAAAnotbase64!!",
        "ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ",  # an RSA blob named ed25519
    ],
)
def test_anything_but_one_public_key_is_refused(tmp_path: Path, line: str) -> None:
    with pytest.raises(BadKey):
        authorized.add_key(tmp_path / "authorized_keys", line, "c")
    assert not (tmp_path / "authorized_keys").exists()


def test_a_second_line_cannot_ride_along(tmp_path: Path) -> None:
    path = tmp_path / "authorized_keys"
    first, second = keys.generate("a").public, keys.generate("b").public
    authorized.add_key(path, f"{first}\n{second}", "c")
    assert len(lines(path)) == 1
    assert second.split()[1] not in path.read_text()
    with pytest.raises(BadKey, match="comment"):
        authorized.add_key(path, second, "evil\nssh-ed25519 AAAA")


@pytest.mark.parametrize(
    ("typed", "url"),
    [
        ("192.0.2.7", "https://192.0.2.7"),
        ("http://nas.local:8000/", "http://nas.local:8000"),
        ("https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"),
    ],
)
def test_the_address_is_a_panel_url(typed: str, url: str) -> None:
    assert pairing.panel(typed).url == url


@pytest.mark.parametrize(
    "typed",
    ["", "ftp://nas", "file:///etc/passwd", "-oProxyCommand=x", "https://nas/api", "h:99999", "î]"],
)
def test_other_addresses_are_refused_on_the_field(typed: str) -> None:
    with pytest.raises(pairing.PairingError) as refused:
        pairing.panel(typed)
    assert refused.value.field == "address"


# -- the other side's endpoint ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_other_side_wants_an_administrator(other_side: Sshd, admin_user, django_user_model):
    public = keys.generate("x").public
    body = {"username": "admin", "password": "wrong", "public_key": public}
    answer = Client().post("/api/replication/pairing/", body, content_type=JSON)
    assert answer.status_code == 401
    django_user_model.objects.create_user("kid", password="kid-password-1")
    body = {"username": "kid", "password": "kid-password-1", "public_key": public}
    assert Client().post("/api/replication/pairing/", body, content_type=JSON).status_code == 403
    assert lines(other_side.folder / "authorized_keys") == []


@pytest.mark.django_db
def test_the_other_side_adds_the_key_and_names_its_ssh_server(other_side: Sshd, admin_user):
    public = keys.generate("x").public
    body = {"username": "admin", "password": "password", "public_key": public,
            "comment": "nasui@far"}  # fmt: skip
    answer = Client().post("/api/replication/pairing/", body, content_type=JSON)
    assert answer.status_code == 200, answer.content
    offer = answer.json()
    assert offer["port"] == other_side.port
    assert offer["host_keys"] == [{"kind": "ssh-ed25519", "blob": other_side.host_key_blob}]
    assert lines(other_side.folder / "authorized_keys")[-1].endswith(" nasui@far")
    body["public_key"] = "not a key"
    bad = Client().post("/api/replication/pairing/", body, content_type=JSON)
    assert bad.status_code == 400
    assert "public_key" in bad.json()["fields"]


# -- the whole pairing, box to box -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_pairing_authorizes_pins_and_checks(other_side: Sshd, admin_user, live_server) -> None:
    body = {"name": "far", "address": live_server.url, "username": "admin",
            "password": "password"}  # fmt: skip
    client = Client()
    client.force_login(admin_user)
    answer = client.post(PAIR, body, content_type=JSON)
    assert answer.status_code == 201, answer.content
    connection = SshConnection.objects.get(name="far")
    assert (connection.host, connection.port) == ("localhost", other_side.port)
    assert connection.host_keys == [{"kind": "ssh-ed25519", "blob": other_side.host_key_blob}]
    assert connection.checked_at is not None  # ssh true ran with the new key
    authorized_line = lines(other_side.folder / "authorized_keys")[-1]
    assert connection.public_key.split()[1] in authorized_line
    assert "password" not in answer.json()


@pytest.mark.django_db(transaction=True)
def test_a_forwarded_ssh_port_is_used_instead_of_the_one_named(
    other_side: Sshd, admin_user, live_server, settings
) -> None:
    """A router forwards another port to the other box's sshd: the port it names (22 there)
    does not answer from here, the one the user gives does."""
    settings.NASUI_SSH_PORT = 9  # what the other panel names: nothing listens there
    body = {"name": "far", "address": live_server.url, "username": "admin",
            "password": "password", "ssh_port": other_side.port}  # fmt: skip
    client = Client()
    client.force_login(admin_user)
    answer = client.post(PAIR, body, content_type=JSON)
    assert answer.status_code == 201, answer.content
    assert SshConnection.objects.get(name="far").port == other_side.port
    for port in (0, 70000):
        bad = client.post(PAIR, {**body, "name": "again", "ssh_port": port}, content_type=JSON)
        assert bad.status_code == 400
        assert "ssh_port" in bad.json()["fields"]
    assert SshConnection.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_wrong_password_there_is_said_on_its_field(other_side, admin_user, live_server) -> None:
    body = {"name": "far", "address": live_server.url, "username": "admin", "password": "nope"}
    client = Client()
    client.force_login(admin_user)
    answer = client.post(PAIR, body, content_type=JSON)
    assert answer.status_code == 400
    assert "Wrong user name or password" in answer.json()["fields"]["password"][0]
    assert not SshConnection.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(shutil.which("oathtool") is None, reason="oathtool (make dev-deps)")
def test_an_administrator_there_with_two_factor_gives_their_code(
    other_side: Sshd, admin_user, live_server
) -> None:
    """The other panel's administrator signs in with a code: asked for on its field, then
    taken (codes from Debian's oathtool)."""
    from access.twofactor import services as twofactor

    secret = twofactor.setup_start(user=admin_user).secret
    twofactor.setup_confirm(user=admin_user, code=oathtool(secret, "now - 30 seconds"))
    body = {"name": "far", "address": live_server.url, "username": "admin",
            "password": "password"}  # fmt: skip
    client = Client()
    client.force_login(admin_user)
    asked = client.post(PAIR, body, content_type=JSON)
    assert asked.status_code == 400
    assert "code" in asked.json()["fields"]["code"][0]
    paired = client.post(PAIR, {**body, "code": oathtool(secret)}, content_type=JSON)
    assert paired.status_code == 201, paired.content
    assert SshConnection.objects.filter(name="far").exists()


def oathtool(secret: str, at: str = "now") -> str:
    """The code an authenticator app shows at `at`."""
    argv = ["oathtool", "--totp", "-b", secret, "-N", at]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.django_db(transaction=True)
def test_host_keys_that_disagree_are_not_pinned(
    other_side: Sshd, admin_user, live_server, settings, tmp_path: Path
) -> None:
    stranger = tmp_path / "other_host_key.pub"
    stranger.write_text(keys.generate("x").public + "\n")
    settings.NASUI_SSH_HOST_KEYS = str(stranger)
    body = {"name": "far", "address": live_server.url, "username": "admin",
            "password": "password"}  # fmt: skip
    client = Client()
    client.force_login(admin_user)
    answer = client.post(PAIR, body, content_type=JSON)
    assert answer.status_code == 400
    assert "other host keys than its panel names" in answer.json()["fields"]["address"][0]
    assert not SshConnection.objects.exists()


@pytest.mark.django_db
def test_nothing_answering_is_said_on_the_address(admin_client) -> None:
    body = {"name": "far", "address": "http://127.0.0.1:9", "username": "a", "password": "b"}
    answer = admin_client.post(PAIR, body, content_type=JSON)
    assert answer.status_code == 400
    assert "Nothing answered at http://127.0.0.1:9" in answer.json()["fields"]["address"][0]


@pytest.mark.django_db(transaction=True)
def test_the_pair_page_pairs_and_says_errors_on_fields(other_side, admin_user, live_server):
    client = Client()
    client.force_login(admin_user)
    assert b"Pair with another nasui" in client.get("/replication/connections/").content
    form = client.get("/replication/connections/pair/")
    assert form.status_code == 200
    assert b'type="password"' in form.content
    body = {"name": "far", "address": "ftp://x", "username": "admin", "password": "password"}
    bad = client.post("/replication/connections/pair/", body)
    assert bad.status_code == 400
    assert b"http:// or https://" in bad.content
    body["address"] = live_server.url
    done = client.post("/replication/connections/pair/", body)
    assert done.status_code == 302
    connection = SshConnection.objects.get(name="far")
    assert done["Location"] == f"/replication/connections/{connection.pk}/"

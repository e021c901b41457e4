"""SSH connection pages: list and empty state, add, the connection's key and host key, check,
re-pin and delete behind confirmations; never the private key."""

from __future__ import annotations

import html

import pytest
from django.contrib.messages import get_messages

from nasui.lib.net import free_loopback_port
from replication.connections.engine import keys
from replication.models import SshConnection
from replication.tests.helpers import shows_no_secret

pytestmark = pytest.mark.django_db
LIST = "/replication/connections/"


def page_of(client, connection: SshConnection, tail: str = "") -> str:
    return client.get(f"{LIST}{connection.pk}/{tail}").content.decode()


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_list_shows_an_empty_state_with_a_button(admin_client):
    page = admin_client.get(LIST).content.decode()
    assert "No SSH connections" in page
    assert "/replication/connections/add/" in page


def test_replication_is_in_the_navigation_and_its_tasks_lead_to_the_connections(admin_client):
    assert 'href="/replication/"' in admin_client.get("/").content.decode()
    tasks = admin_client.get(admin_client.get("/replication/")["Location"]).content.decode()
    assert f'href="{LIST}"' in tasks


def test_adding_a_connection_leads_to_its_key(admin_client, sshd):
    form = {"name": "backup", "host": "127.0.0.1", "port": sshd.port, "user": "root"}
    response = admin_client.post(f"{LIST}add/", form)
    connection = SshConnection.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{LIST}{connection.pk}/"
    assert "authorize its key" in said(response)[0]


def test_the_connection_page_shows_the_key_the_line_and_the_host_key(admin_client, connection):
    page = page_of(admin_client, connection)
    assert connection.public_key in page
    line = f"echo '{connection.public_key}' >> ~root/.ssh/authorized_keys"
    assert line in html.unescape(page)
    assert 'data-copy="authorize-command"' in page
    assert connection.host_keys[0]["blob"] not in page
    assert keys.fingerprint(connection.host_keys[0]["blob"]) in page
    assert "Check connection" in page


def test_no_page_shows_the_private_key(admin_client, connection):
    for tail in ("", "rename/", "repin/", "delete/"):
        assert shows_no_secret(page_of(admin_client, connection, tail), connection), tail
    assert shows_no_secret(admin_client.get(LIST).content.decode(), connection)


def test_a_bad_field_is_shown_on_it_and_saves_nothing(admin_client):
    form = {"name": "bad name", "host": "127.0.0.1", "port": 22, "user": "root"}
    response = admin_client.post(f"{LIST}add/", form)
    assert response.status_code == 400
    assert 'data-field-error="name"' in response.content.decode()
    assert not SshConnection.objects.exists()


def test_nothing_listening_is_shown_on_host(admin_client):
    port = free_loopback_port()
    form = {"name": "gone", "host": "127.0.0.1", "port": port, "user": "root"}
    response = admin_client.post(f"{LIST}add/", form)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="host"' in page
    assert f"No SSH server answered at 127.0.0.1 port {port}." in page


def test_check_says_it_works(admin_client, authorized):
    response = admin_client.post(f"{LIST}{authorized.pk}/check/")
    assert response["Location"] == f"{LIST}{authorized.pk}/"
    assert said(response) == ["backup works: root@127.0.0.1 ran a command for this box."]


def test_check_says_the_engine_s_words_and_the_page_keeps_them(admin_client, authorized, sshd):
    sshd.restart(new_host_key=True)
    response = admin_client.post(f"{LIST}{authorized.pk}/check/")
    [message] = said(response)
    assert keys.fingerprint(sshd.host_key_blob) in message
    assert 'data-testid="last-error"' in page_of(admin_client, authorized)
    assert admin_client.get(f"{LIST}{authorized.pk}/check/").status_code == 405


def test_repin_asks_first_showing_both_keys_then_pins(admin_client, authorized, sshd):
    pinned = keys.fingerprint(sshd.host_key_blob)
    sshd.restart(new_host_key=True)
    offered = keys.fingerprint(sshd.host_key_blob)
    page = page_of(admin_client, authorized, "repin/")
    assert pinned in page
    assert offered in page
    assert "reinstalled" in page
    response = admin_client.post(f"{LIST}{authorized.pk}/repin/", {"fingerprints": offered})
    assert response.status_code == 302
    authorized.refresh_from_db()
    assert authorized.host_keys[0]["blob"] == sshd.host_key_blob
    assert said(admin_client.post(f"{LIST}{authorized.pk}/check/"))[-1].startswith("backup works")


def test_repin_refuses_a_key_other_than_the_one_shown(admin_client, authorized, sshd):
    sshd.restart(new_host_key=True)
    response = admin_client.post(f"{LIST}{authorized.pk}/repin/", {"fingerprints": "SHA256:x"})
    assert response.status_code == 400
    assert "nothing was pinned" in response.content.decode()
    assert admin_client.post(f"{LIST}{authorized.pk}/repin/", {}).status_code == 400


def test_rename(admin_client, connection):
    response = admin_client.post(f"{LIST}{connection.pk}/rename/", {"name": "offsite"})
    assert response.status_code == 302
    assert SshConnection.objects.get().name == "offsite"


def test_delete_asks_first_then_deletes(admin_client, connection):
    page = page_of(admin_client, connection, "delete/")
    assert "Delete connection" in page
    assert "authorized_keys" in page
    response = admin_client.post(f"{LIST}{connection.pk}/delete/")
    assert response["Location"] == LIST
    assert not SshConnection.objects.exists()


def test_the_list_shows_each_connection_and_its_last_check(admin_client, connection):
    connection.last_error = "Cannot connect to root@127.0.0.1 port 1: refused"
    connection.save()
    page = admin_client.get(LIST).content.decode()
    assert 'data-connection="backup"' in page
    assert "failed" in page

"""SSH connection services against a real sshd: pin on create, check, refuse a changed host key,
re-pin on request; each refusal on its field, nothing half-saved."""

from __future__ import annotations

import socket

import pytest
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.lib.net import free_loopback_port
from replication.connections import selectors, services
from replication.connections.engine import keys
from replication.models import SshConnection
from replication.tests.sshd import Sshd

pytestmark = pytest.mark.django_db


def field_of(refused: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return list(refused.value.message_dict)


def test_create_pins_the_server_s_host_key_and_makes_a_key_pair(connection, sshd):
    assert selectors.fingerprints(connection) == [keys.fingerprint(sshd.host_key_blob)]
    kind, _blob, comment = connection.public_key.split()
    assert (kind, comment) == ("ssh-ed25519", f"nasui@{socket.gethostname()}")
    assert connection.private_key.startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    assert connection.checked_at is None


def test_the_command_to_run_there_appends_the_public_key_for_the_user(connection):
    assert selectors.authorize_command(connection) == (
        f"echo '{connection.public_key}' >> ~root/.ssh/authorized_keys"
    )


def test_check_succeeds_once_the_key_is_authorized(authorized):
    checked = services.connection_check(connection=authorized)
    authorized.refresh_from_db()
    assert checked.checked_at is not None
    assert authorized.checked_at == checked.checked_at
    assert authorized.last_error == ""


def test_check_before_the_key_is_authorized_says_what_to_do(connection):
    with pytest.raises(ValidationError, match="add its public key") as refused:
        services.connection_check(connection=connection)
    assert field_of(refused) == [NON_FIELD_ERRORS]
    connection.refresh_from_db()
    assert "~root/.ssh/authorized_keys" in connection.last_error
    assert connection.checked_at is None


def test_a_changed_host_key_is_refused_naming_both_and_kept_as_last_error(authorized, sshd):
    pinned = selectors.fingerprints(authorized)[0]
    sshd.restart(new_host_key=True)
    offered = keys.fingerprint(sshd.host_key_blob)
    with pytest.raises(ValidationError) as refused:
        services.connection_check(connection=authorized)
    said = refused.value.messages[0]
    assert f"now offers a host key ({offered})" in said
    assert f"than the one pinned ({pinned})" in said
    authorized.refresh_from_db()
    assert authorized.last_error == said
    assert selectors.fingerprints(authorized) == [pinned]


def test_repin_then_check_succeeds(authorized, sshd):
    sshd.restart(new_host_key=True)
    with pytest.raises(ValidationError):
        services.connection_check(connection=authorized)
    services.connection_repin(connection=authorized)
    authorized.refresh_from_db()
    assert selectors.fingerprints(authorized) == [keys.fingerprint(sshd.host_key_blob)]
    assert authorized.last_error == ""
    assert services.connection_check(connection=authorized).checked_at is not None


def test_repin_refuses_a_key_other_than_the_one_the_user_saw(authorized, sshd):
    shown = selectors.fingerprints(authorized)
    sshd.restart(new_host_key=True)
    with pytest.raises(ValidationError, match="nothing was pinned"):
        services.connection_repin(connection=authorized, expected=[*shown, "SHA256:other"])
    authorized.refresh_from_db()
    assert selectors.fingerprints(authorized) == shown


def test_nothing_listening_is_refused_on_host_and_saves_nothing(db):
    port = free_loopback_port()
    with pytest.raises(ValidationError) as refused:
        services.connection_create(name="gone", host="127.0.0.1", port=port)
    assert refused.value.message_dict == {
        "host": [f"No SSH server answered at 127.0.0.1 port {port}."]
    }
    assert not SshConnection.objects.exists()


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"name": "bad name"}, "name"),
        ({"name": "-dash"}, "name"),
        ({"name": "x" * 65}, "name"),
        ({"host": "-oProxyCommand=x"}, "host"),
        ({"host": "no spaces.example"}, "host"),
        ({"port": 0}, "port"),
        ({"port": 65536}, "port"),
        ({"user": "-oProxyCommand=x"}, "user"),
        ({"user": "a b"}, "user"),
    ],
)
def test_a_bad_field_is_refused_on_it_and_saves_nothing(db, values, field):
    given = {"name": "box", "host": "127.0.0.1", "port": 22, "user": "root", **values}
    with pytest.raises(ValidationError) as refused:
        services.connection_create(**given)
    assert field_of(refused) == [field]
    assert not SshConnection.objects.exists()


def test_a_name_taken_is_refused(connection, sshd):
    with pytest.raises(ValidationError, match="already exists") as refused:
        services.connection_create(name="backup", host="127.0.0.1", port=sshd.port)
    assert field_of(refused) == ["name"]
    assert SshConnection.objects.count() == 1


def test_a_connection_is_renamed_but_its_address_never_changes(connection, sshd):
    services.connection_update(connection=connection, name="offsite", port=sshd.port)
    assert SshConnection.objects.get().name == "offsite"
    for field, value in (("host", "192.0.2.1"), ("port", 2222), ("user", "backup")):
        with pytest.raises(ValidationError, match="add a new connection") as refused:
            services.connection_update(connection=connection, **{field: value})
        assert field_of(refused) == [field]
    saved = SshConnection.objects.get()
    assert (saved.host, saved.port, saved.user) == ("127.0.0.1", sshd.port, "root")


def test_delete_removes_the_connection_and_its_key(connection):
    services.connection_delete(connection=connection)
    assert not SshConnection.objects.exists()


def test_a_connection_gives_the_engine_its_pinned_keys(connection: SshConnection, sshd: Sshd):
    remote = selectors.remote(connection)
    assert (remote.host, remote.port, remote.user) == ("127.0.0.1", sshd.port, "root")
    assert [key.blob for key in remote.host_keys] == [sshd.host_key_blob]
    assert remote.private_key == connection.private_key

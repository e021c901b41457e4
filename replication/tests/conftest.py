"""Fixtures of the replication tests: a real sshd on loopback, connections made against it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from replication.connections import services
from replication.models import SshConnection
from replication.tests.sshd import Sshd


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[Sshd]:
    """A running server with its own host key; nothing authorized yet."""
    server = Sshd(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def connection(db: None, sshd: Sshd) -> SshConnection:
    """A connection to the server, made by the service (host key pinned), not yet authorized."""
    return services.connection_create(name="backup", host="127.0.0.1", port=sshd.port)


@pytest.fixture
def authorized(connection: SshConnection, sshd: Sshd) -> SshConnection:
    """The connection, its public key in the server's authorized_keys."""
    sshd.authorize(connection.public_key)
    return connection

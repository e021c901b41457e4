"""Fixtures of the replication tests: a real sshd on loopback, connections made against it;
two sandbox pools and a local task between them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from replication.connections import services
from replication.models import ReplicationTask, SshConnection
from replication.replications import services as tasks
from replication.tests.local import SCHEMA
from replication.tests.sshd import Sshd
from storage.engine import get_engine
from storage.pools import services as pool_services


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


@pytest.fixture
def pools(tank, admin_user) -> None:
    """Two pools (tank, backup) and tank/home."""
    pool_services.pool_create(name="backup", layout="stripe", disks=["sdd"], user=admin_user)
    get_engine().create_dataset("tank/home")


@pytest.fixture
def task(pools: None) -> ReplicationTask:
    """A local task, run by hand, from tank/home to backup/home."""
    return tasks.replication_task_create(
        name="home", direction="local", source="tank/home", target="backup/home",
        naming_schema=SCHEMA, trigger="manual",
    )  # fmt: skip

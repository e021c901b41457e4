"""A disk of a mirror made to fail on real OpenZFS: the pool turns DEGRADED, the panel's alert
rule raises a danger alert and its mail reaches an SMTP server.

The alert's lifecycle (raised once, cleared, dismissed) and the rate-limited outbox need Django
and run in the fast lane on the sandbox engine; here the guest has no Django, so this checks
the parts that meet the real failure: zpool status as the engine parses it, the alert rule
(monitoring.metrics.engine.alerts.pool_alerts) and the panel's smtplib sender
(monitoring.alerting.engine.mail) talking to an SMTP server in the guest (Python 3.11's
smtpd: the guest has no aiosmtpd).
"""

from __future__ import annotations

import asyncore
import subprocess
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from email import message_from_bytes
from pathlib import Path

import pytest

from monitoring.alerting.engine import mail
from monitoring.metrics.engine.alerts import pool_alerts
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import smtpd

POOL = "failpool"
MIB = 1 << 20


class Inbox(smtpd.SMTPServer):
    """An SMTP server that keeps what it receives."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ("127.0.0.1", 0), decode_data=False)  # no relay
        self.received: list[bytes] = []

    def process_message(self, peer, mailfrom, rcpttos, data, **kwargs):
        self.received.append(data)


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """A real SMTP server on the guest's loopback, served by a thread."""
    server = Inbox()
    thread = threading.Thread(target=asyncore.loop, kwargs={"timeout": 0.1}, daemon=True)
    thread.start()
    yield server
    server.close()


def leaf_states(engine: CliZfsEngine) -> dict[str, str]:
    status = engine.pool_status(POOL)
    return {leaf.name: leaf.state for vdev in status.vdevs for leaf in vdev.leaves}


def test_an_overwritten_disk_degrades_the_pool_raises_the_alert_and_mails_it(
    engine: CliZfsEngine, module_pool: Callable[..., str], all_disks: list[str], inbox: Inbox
) -> None:
    module_pool(POOL, PoolLayout.single("mirror", all_disks[6:8]))
    Path(f"/{POOL}/data").write_bytes(b"x" * (8 * MIB))
    subprocess.run(["zpool", "sync", POOL], check=True)
    victim = Path(all_disks[7]).name
    # The whole disk, ZFS's labels at both ends included: as if it died or was swapped.
    subprocess.run(["dd", "if=/dev/zero", f"of={all_disks[7]}", "bs=1M", "oflag=direct"],
                   capture_output=True, check=False)  # fmt: skip
    subprocess.run(["zpool", "reopen", POOL], capture_output=True, check=False)
    subprocess.run(["zpool", "scrub", "-w", POOL], capture_output=True, check=False, timeout=300)
    deadline = time.monotonic() + 60
    while engine.get_pool(POOL).health == "ONLINE" and time.monotonic() < deadline:
        time.sleep(2)
    health = engine.get_pool(POOL).health
    states = leaf_states(engine)
    print(f"\npool {health}; disks {states}")
    assert health == "DEGRADED"
    assert next(s for name, s in states.items() if name.startswith(victim)) != "ONLINE"
    assert Path(f"/{POOL}/data").read_bytes() == b"x" * (8 * MIB)  # the other side holds

    (alert,) = pool_alerts({}, {POOL: health})
    assert (alert.level, alert.kind, alert.title) == (
        "danger",
        "pool_health",
        f"Pool {POOL} is DEGRADED",
    )
    assert inbox.socket is not None
    host, port = inbox.socket.getsockname()
    config = mail.SmtpConfig(host, port, "none", "nas@example.org", ("owner@example.org",))
    mail.send(config, f"[nasui] DANGER: {alert.title}", alert.text)
    deadline = time.monotonic() + 10
    while not inbox.received and time.monotonic() < deadline:
        time.sleep(0.1)
    (received,) = inbox.received
    message = message_from_bytes(received)
    assert message["Subject"] == f"[nasui] DANGER: Pool {POOL} is DEGRADED"
    assert message["To"] == "owner@example.org"
    assert "replace it" in message.get_payload()

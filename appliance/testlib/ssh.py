"""The appliance as replication's other end: paired from the host through its API, then reached
over SSH with the key it authorized and the host key it named (pinned, as a pairing nasui pins
it). The host key and the authorized keys live on the data partition: a reboot and an upgrade
keep both, or the pinned key is refused."""

from __future__ import annotations

from appliance.testlib.config import ResultDict
from appliance.testlib.panel import Client
from appliance.testlib.vm import VM
from replication.connections.engine import hostkeys, keys, ssh
from replication.connections.engine.hostkeys import HostKey


def pair(vm: VM, state: ResultDict) -> None:
    """Pair the host with the appliance as another nasui would; keep what a connection keeps."""
    keypair = keys.generate("nasui@appliance-test")
    body = {"username": "admin", "password": state["password"], "public_key": keypair.public,
            "comment": "nasui@appliance-test"}  # fmt: skip
    status, offer = Client(vm.url).api("POST", "/api/replication/pairing/", body)
    assert status == 200, offer
    assert (offer["user"], offer["port"]) == ("root", 22), offer
    named = [HostKey(k["kind"], k["blob"]) for k in offer["host_keys"]]
    scanned = hostkeys.scan("127.0.0.1", vm.ssh_port)
    assert {k.fingerprint for k in scanned} == {k.fingerprint for k in named}, (scanned, named)
    state["ssh"] = {"private": keypair.private, "host_keys": [(k.kind, k.blob) for k in named]}


def root(vm: VM, state: ResultDict) -> ssh.Remote:
    """Root on the appliance with the key pairing authorized, under its pinned host key."""
    pinned = tuple(HostKey(kind, blob) for kind, blob in state["ssh"]["host_keys"])
    return ssh.Remote("127.0.0.1", vm.ssh_port, "root", state["ssh"]["private"], pinned)


def assert_ssh_reaches_the_pool(vm: VM, state: ResultDict, pool: str = "tank") -> None:
    """The key pairing authorized logs in as root, under the pinned host key, and sees the pool."""
    remote = root(vm, state)
    listed = ssh.run(remote, ["zfs", "list", "-H", "-o", "name", pool], timeout=120)
    assert listed.split() == [pool], listed

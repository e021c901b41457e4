"""Replication against real OpenZFS: push and pull over ssh to the guest's own sshd.

Two pools stand for two boxes; the other box is reached as root@127.0.0.1 through a real
OpenSSH server with its own host key, pinned as the panel pins it. The runner
(replication/replications/engine/runner.py) does what a task's run does: full then incremental,
the base held on both sides, a cut link resumed from the receive token, a changed host key
refused; a pull back restores the files byte for byte; the target's retention keeps what it
should.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from vmhelpers import OUT

from replication.connections.engine import hostkeys, keys
from replication.connections.engine.ssh import Remote
from replication.replications.engine import chain
from replication.replications.engine.errors import TargetDiverged
from replication.replications.engine.pump import Limits, TransferFailed
from replication.replications.engine.runner import Job, Moved, Outcome, replicate
from replication.replications.engine.sides import Side, SideError, over_ssh
from replication.replications.engine.target_retention import expired_on_target
from replication.restores.engine.compare import compare_trees
from replication.tests.sshd import Sshd
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine

SCHEMA = "auto-%Y-%m-%d_%H-%M"
TAG = "nasui-repl-vm"
SOURCE, TARGET = "rsrc/data", "rdst/data"
MIB = 1 << 20
HERE = Side()


def stamp(day: int, hour: int = 0) -> str:
    """A snapshot name of the schema for 2026-01-DAY HOUR:00 UTC."""
    return datetime(2026, 1, day, hour, tzinfo=UTC).strftime(SCHEMA)


def job(
    source: str = SOURCE,
    target: str = TARGET,
    tag: str = TAG,
    choice: str | None = None,
    limits: Limits | None = None,
) -> Job:
    """What a task's run hands the engine for one dataset."""
    return Job(source=source, target=target, eligible=chain.named_by(SCHEMA), tag=tag,
               choice=choice, limits=limits or Limits())  # fmt: skip


def write(dataset: str, name: str, size: int, seed: int) -> None:
    """A file of seeded bytes, half random, half repetitive text (so compression has work)."""
    rng = random.Random(seed)
    text = b"".join(b"line %d of the family's notes\n" % i for i in range(size // 64))
    Path(f"/{dataset}/{name}").write_bytes(rng.randbytes(size // 2) + text[: size - size // 2])


def tree_digest(root: Path) -> dict[str, str]:
    """sha256 of every file under root, by relative path."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def snapshot_root(dataset: str, snap: str) -> Path:
    """A snapshot's files through the dataset's .zfs folder (mounted on first access)."""
    return Path(f"/{dataset}/.zfs/snapshot/{snap}")


def holds(dataset: str) -> dict[str, list[str]]:
    """Tags held per snapshot short name, as the storage engine reads them (`zfs holds -H`)."""
    names = [f"{dataset}@{s.name}" for s in HERE.snapshots(dataset) or ()]
    found = CliZfsEngine().hold_tags(names) if names else {}
    return {name.split("@", 1)[1]: tags for name, tags in found.items()}


@pytest.fixture(scope="module")
def pools(module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine) -> None:
    module_pool("rsrc", PoolLayout.single("stripe", all_disks[0:1]))
    module_pool("rdst", PoolLayout.single("stripe", all_disks[1:2]))
    engine.create_dataset(SOURCE, properties={"compression": "lz4"})


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sshd]:
    server = Sshd(tmp_path_factory.mktemp("sshd"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def remote(sshd: Sshd) -> Remote:
    """This box's key authorized there, its host key pinned (trust on first use)."""
    pair = keys.generate("nasui-vm")
    sshd.authorize(pair.public)
    pinned = tuple(hostkeys.scan("127.0.0.1", sshd.port))
    return Remote("127.0.0.1", sshd.port, "root", pair.private, pinned)


@pytest.fixture(scope="module")
def there(remote: Remote) -> Iterator[Side]:
    with over_ssh(remote) as side:
        yield side


def test_push_sends_in_full_then_incrementally_and_moves_the_held_base(
    pools: None, there: Side
) -> None:
    write(SOURCE, "photos.bin", 6 * MIB, 1)
    subprocess.run(["zfs", "snapshot", f"{SOURCE}@{stamp(1)}"], check=True)
    first = replicate(HERE, there, job())
    assert first.kind == "full"
    write(SOURCE, "notes.bin", 2 * MIB, 2)
    for day in (2, 3):
        subprocess.run(["zfs", "snapshot", f"{SOURCE}@{stamp(day)}"], check=True)
    subprocess.run(["zfs", "mount", TARGET], check=True)  # read-only: it stays as received
    second = replicate(HERE, there, job())
    assert second.kind == "incremental"
    assert second.arrived == (stamp(2), stamp(3))
    source_guids = {s.name: s.guid for s in HERE.snapshots(SOURCE) or ()}
    target_guids = {s.name: s.guid for s in there.snapshots(TARGET) or ()}
    assert target_guids == source_guids
    assert holds(SOURCE) == {stamp(3): [TAG]}
    assert holds(TARGET) == {stamp(3): [TAG]}
    assert tree_digest(snapshot_root(TARGET, stamp(3))) == tree_digest(
        snapshot_root(SOURCE, stamp(3))
    )
    pushed = {"full": first.sent, "incremental": second.sent}
    (OUT / "replication_push.json").write_text(json.dumps(pushed))


def test_pruning_on_the_source_spares_the_base_and_the_chain_goes_on(
    pools: None, there: Side
) -> None:
    HERE.destroy_snapshots(SOURCE, [stamp(1), stamp(2)])
    with pytest.raises(SideError, match="dataset is busy"):
        HERE.destroy_snapshots(SOURCE, [stamp(3)])  # held: the next run's base
    write(SOURCE, "more.bin", 1 * MIB, 3)
    subprocess.run(["zfs", "snapshot", f"{SOURCE}@{stamp(4)}"], check=True)
    outcome = replicate(HERE, there, job())
    assert (outcome.kind, outcome.arrived) == ("incremental", (stamp(4),))
    assert holds(SOURCE) == {stamp(4): [TAG]}


def test_a_pull_restores_the_files_byte_for_byte(
    pools: None, there: Side, engine: CliZfsEngine
) -> None:
    restore = Job(TARGET, "rsrc/restored", chain.named_by(SCHEMA), tag="", restore=True)
    outcome = replicate(there, HERE, restore)
    assert outcome.kind == "full"
    # A restore is mounted and writable, as the original was, and holds nothing.
    values = HERE.properties("rsrc/restored", ("mounted", "readonly"))
    assert values == {"mounted": "yes", "readonly": "off"}
    assert holds("rsrc/restored") == {}
    assert all(tags == [TAG] for tags in holds(TARGET).values())
    restored = tree_digest(Path("/rsrc/restored"))
    assert restored == tree_digest(snapshot_root(SOURCE, stamp(4)))
    assert restored == tree_digest(Path(f"/{SOURCE}"))
    # A test restore reads the copy's snapshot through a clone (a copy is never mounted).
    engine.clone(f"{TARGET}@{stamp(4)}", "rdst/reference", properties={"readonly": "on"})
    try:
        same = compare_trees(Path("/rdst/reference"), Path("/rsrc/restored"))
        older = compare_trees(snapshot_root(SOURCE, stamp(3)), Path("/rsrc/restored"))
    finally:
        engine.destroy_dataset("rdst/reference")
    assert (same.same, same.files) == (True, len(restored))
    assert same.compared_bytes == 9 * MIB  # photos, notes and more: every byte read back
    assert not older.same
    assert any("in the restore but not in the original" in d for d in older.differences)


def test_a_diverged_target_is_refused_and_nothing_is_destroyed(pools: None, there: Side) -> None:
    subprocess.run(["zfs", "snapshot", f"{TARGET}@mine"], check=True)
    subprocess.run(["zfs", "snapshot", f"{SOURCE}@{stamp(5)}"], check=True)
    with pytest.raises(TargetDiverged, match="mine"):
        replicate(HERE, there, job())
    assert "mine" in [s.name for s in there.snapshots(TARGET) or ()]
    outcome = replicate(HERE, there, job(choice="rollback"))
    assert outcome.arrived == (stamp(5),)
    assert "mine" not in [s.name for s in there.snapshots(TARGET) or ()]


def killer(pattern: str, after: Callable[[], bool]) -> threading.Thread:
    """A thread that kills the ssh client whose command line has `pattern` once `after()`."""

    def run() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not after():
            time.sleep(0.1)
        found = subprocess.run(["pgrep", "-f", f"^ssh .*{pattern}"], capture_output=True,
                               text=True, check=False).stdout.split()  # fmt: skip
        for pid in found:
            os.kill(int(pid), signal.SIGKILL)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def wait_for_token(side: Side, dataset: str) -> str:
    """The receive on the other side saves its state once it sees the link gone: wait for it."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if token := side.resume_token(dataset):
            return token
        time.sleep(0.5)
    return ""


def test_a_cut_link_resumes_from_the_token_not_from_zero(pools: None, there: Side) -> None:
    dataset, target = "rsrc/big", "rdst/big"
    subprocess.run(["zfs", "create", dataset], check=True)
    Path(f"/{dataset}/random.bin").write_bytes(os.urandom(24 * MIB))
    subprocess.run(["zfs", "snapshot", f"{dataset}@{stamp(6)}"], check=True)
    seen: list[Moved] = []
    slow = job(dataset, target, limits=Limits(bandwidth=4 * MIB))
    cut = killer("zfs receive", lambda: bool(seen) and seen[-1].sent > 8 * MIB)
    with pytest.raises(TransferFailed):
        replicate(HERE, there, slow, seen.append)
    cut.join()
    before_cut = seen[-1].sent
    assert wait_for_token(there, target), "the receive kept its state and a token"
    resumed: Outcome = replicate(HERE, there, job(dataset, target))
    assert resumed.resumed
    stream = seen[-1].total
    total = before_cut + resumed.sent
    figures = {"stream": stream, "before_cut": before_cut, "after_cut": resumed.sent,
               "ratio": round(total / stream, 3)}  # fmt: skip
    (OUT / "replication_resume.json").write_text(json.dumps(figures))
    assert total < 1.5 * stream
    assert not there.resume_token(target)
    assert [s.name for s in there.snapshots(target) or ()] == [stamp(6)]


def test_retention_on_the_target_keeps_the_base_and_the_newest(pools: None, there: Side) -> None:
    dataset, target = "rsrc/kept", "rdst/kept"
    subprocess.run(["zfs", "create", dataset], check=True)
    for day in (10, 11, 12, 20):
        write(dataset, f"day{day}.bin", MIB // 4, day)
        subprocess.run(["zfs", "snapshot", f"{dataset}@{stamp(day)}"], check=True)
    replicate(HERE, there, job(dataset, target))
    HERE.destroy_snapshots(dataset, [stamp(10), stamp(11)])
    doomed = expired_on_target(
        there.snapshots(target) or (), source=HERE.snapshots(dataset) or (), schema=SCHEMA,
        keep=timedelta(days=10), now=datetime(2026, 1, 21, tzinfo=UTC),
    )  # fmt: skip
    assert doomed == [stamp(10), stamp(11)]  # 10 days old at the 21st: expired, to the minute
    there.destroy_snapshots(target, doomed)
    assert [s.name for s in there.snapshots(target) or ()] == [stamp(12), stamp(20)]


def test_a_changed_host_key_is_refused_in_words(
    pools: None, tmp_path: Path, remote: Remote
) -> None:
    server = Sshd(tmp_path)
    server.start()
    try:
        pair = keys.generate("nasui-vm-2")
        server.authorize(pair.public)
        pinned = tuple(hostkeys.scan("127.0.0.1", server.port))
        server.restart(new_host_key=True)
        changed = Remote("127.0.0.1", server.port, "root", pair.private, pinned)
        with over_ssh(changed) as side, pytest.raises(SideError, match="now offers a host key"):
            side.snapshots(TARGET)
    finally:
        server.stop()


def test_an_encrypted_dataset_goes_raw_and_the_target_keeps_it_without_the_key(
    pools: None, there: Side, engine: CliZfsEngine
) -> None:
    secret = "correct horse battery"
    root = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}
    engine.create_dataset("rsrc/vault", properties=root, key=secret)
    write("rsrc/vault", "tax.bin", 2 * MIB, 7)
    subprocess.run(["zfs", "snapshot", f"rsrc/vault@{stamp(1)}"], check=True)
    vault = job("rsrc/vault", "rdst/vault")
    assert replicate(HERE, there, vault).kind == "full"
    write("rsrc/vault", "more.bin", 1 * MIB, 8)
    subprocess.run(["zfs", "snapshot", f"rsrc/vault@{stamp(2)}"], check=True)
    assert replicate(HERE, there, vault).arrived == (stamp(2),)
    copy = engine.get_dataset("rdst/vault")
    # Stored as sent: encrypted, its own root, and no key there to read it with.
    assert (copy.encryption, copy.encryption_root, copy.key_status) == (
        "aes-256-gcm", "rdst/vault", "unavailable"
    )  # fmt: skip
    engine.load_key("rdst/vault", secret)  # the owner's passphrase opens the copy
    subprocess.run(["zfs", "mount", "rdst/vault"], check=False)
    assert tree_digest(snapshot_root("rdst/vault", stamp(2))) == tree_digest(
        snapshot_root("rsrc/vault", stamp(2))
    )

"""replicate() end to end between two sandbox boxes: each side runs the sandbox's `zfs` command.

The runner, the sides and the pump run as they do against OpenZFS; only the program behind
`zfs` differs (Side(zfs=...)). Two sandbox roots stand for two machines.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from replication.replications.engine import chain
from replication.replications.engine.errors import REPLACE, ROLLBACK, ChainBroken, TargetDiverged
from replication.replications.engine.pump import TransferFailed
from replication.replications.engine.runner import Job, replicate
from replication.replications.engine.sides import Side
from storage.zfs import naming
from storage.zfs.base import PoolLayout
from storage.zfs.errors import WrongKey
from storage.zfs.sandbox import SandboxZfsEngine

GIB = 1024**3
REPO = Path(__file__).resolve().parents[2]
A1, A2, A3, A4 = (f"auto-2026-03-0{day}_00-00" for day in range(1, 5))
TAG = "nasui-replication-7"
JOB = Job("tank/d", "backup/d", chain.named_by(naming.DEFAULT_SCHEMA), TAG)
# A `zfs` that lets only `limit` bytes of a resumable receive's stream through, then ends it:
# the transfer is cut as a dropped link would cut it.
CUT = """
import os, subprocess, sys
limit, argv = int(sys.argv[1]), sys.argv[2:]
if "receive" not in argv or "-A" in argv:
    os.execv(argv[0], argv)
receiver = subprocess.Popen(argv, stdin=subprocess.PIPE)
while limit > 0:
    chunk = sys.stdin.buffer.read1(min(1 << 16, limit))
    if not chunk:
        break
    receiver.stdin.write(chunk)
    limit -= len(chunk)
receiver.stdin.close()
sys.exit(receiver.wait())
"""


@dataclass
class Box:
    """One machine: a sandbox root with one pool."""

    root: Path
    engine: SandboxZfsEngine

    @property
    def zfs(self) -> list[str]:
        return [sys.executable, "-m", "storage.zfs.sandbox.zfs_cli", "--root", str(self.root),
                "--disks", "1", "--disk-gib", "2"]  # fmt: skip

    def side(self) -> Side:
        return Side(zfs=self.zfs)

    def cutting_side(self, limit: int) -> Side:
        return Side(zfs=[sys.executable, "-c", CUT, str(limit), *self.zfs])

    def files(self, dataset: str) -> Path:
        return Path(self.engine.get_dataset(dataset).mountpoint or "")

    def snaps(self, dataset: str) -> dict[str, int]:
        """Short name -> number of holds, oldest first."""
        return {s.short_name: s.holds for s in self.engine.list_snapshots(dataset)}


def box(root: Path, pool: str) -> Box:
    engine = SandboxZfsEngine(root=root, disk_count=1, disk_size=2 * GIB)
    engine.create_pool(pool, PoolLayout("stripe", ((engine.list_disks()[0].path,),)))
    return Box(root, engine)


@pytest.fixture
def boxes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Box, Box]:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    source, target = box(tmp_path / "here", "tank"), box(tmp_path / "there", "backup")
    source.engine.create_dataset("tank/d")
    return source, target


def snapshot(where: Box, name: str, seed: int) -> None:
    """Change the source's files, then snapshot them."""
    root = where.files("tank/d")
    (root / "data.bin").write_bytes(random.Random(seed).randbytes(400_000))
    (root / f"{name}.txt").write_text(name)
    where.engine.create_snapshot(f"tank/d@{name}")


def guids(where: Box, dataset: str) -> list[str]:
    out = where.side().run(["zfs", "list", "-H", "-p", "-t", "snapshot", "-o", "guid", dataset])
    return out.split()


def test_a_first_run_sends_in_full_the_next_one_incrementally_moving_the_holds(
    boxes: tuple[Box, Box],
) -> None:
    source, target = boxes
    snapshot(source, A1, 1)
    snapshot(source, A2, 2)
    first = replicate(source.side(), target.side(), JOB)
    assert (first.kind, first.arrived, first.base, first.resumed) == ("full", (A1, A2), A2, False)
    assert guids(target, "backup/d") == guids(source, "tank/d")
    assert source.snaps("tank/d") == target.snaps("backup/d") == {A1: 0, A2: 1}
    snapshot(source, A3, 3)
    snapshot(source, A4, 4)
    second = replicate(source.side(), target.side(), JOB)
    assert (second.kind, second.arrived, second.base) == ("incremental", (A3, A4), A4)
    assert source.snaps("tank/d") == target.snaps("backup/d") == {A1: 0, A2: 0, A3: 0, A4: 1}
    assert guids(target, "backup/d") == guids(source, "tank/d")
    for name in ("data.bin", f"{A4}.txt"):
        assert (target.files("backup/d") / name).read_bytes() == (
            source.files("tank/d") / name
        ).read_bytes()
    assert replicate(source.side(), target.side(), JOB).kind == "nothing"
    target.engine.release(f"backup/d@{A4}", TAG)  # the hold is the task's own tag


def test_a_cut_transfer_resumes_on_the_next_run(boxes: tuple[Box, Box]) -> None:
    source, target = boxes
    snapshot(source, A1, 1)
    snapshot(source, A2, 2)
    full = _size(source, "tank/d@" + A1)
    step = _size(source, "-i", f"@{A1}", f"tank/d@{A2}")
    with pytest.raises(TransferFailed, match="failed to read from stream"):
        replicate(source.side(), target.cutting_side(150_000), JOB)
    assert target.snaps("backup/d") == {}
    token = target.side().resume_token("backup/d")
    assert token
    outcome = replicate(source.side(), target.side(), JOB)
    assert outcome.resumed
    assert (outcome.kind, outcome.arrived) == ("incremental", (A2,))
    resumed = outcome.sent - step
    assert 0 < resumed < full
    assert resumed + 150_000 < full + 500  # the cut run's bytes were not sent again
    assert guids(target, "backup/d") == guids(source, "tank/d")
    assert target.side().resume_token("backup/d") == ""
    assert target.snaps("backup/d") == {A1: 0, A2: 1}


def test_refusals_come_before_anything_is_destroyed(boxes: tuple[Box, Box]) -> None:
    source, target = boxes
    snapshot(source, A1, 1)
    snapshot(source, A2, 2)
    replicate(source.side(), target.side(), JOB)
    snapshot(source, A3, 3)
    (target.files("backup/d") / "local.txt").write_text("written on the target")
    target.engine.create_snapshot("backup/d@local")
    with pytest.raises(TargetDiverged):
        replicate(source.side(), target.side(), JOB)
    assert target.snaps("backup/d") == {A1: 0, A2: 1, "local": 0}
    assert (target.files("backup/d") / "local.txt").exists()
    target.engine.create_dataset("backup/other")
    target.engine.create_snapshot("backup/other@theirs")
    other = Job("tank/d", "backup/other", JOB.eligible, TAG)
    with pytest.raises(ChainBroken):
        replicate(source.side(), target.side(), other)
    assert target.snaps("backup/other") == {"theirs": 0}
    chosen = Job(JOB.source, JOB.target, JOB.eligible, TAG, choice=ROLLBACK)
    outcome = replicate(source.side(), target.side(), chosen)
    assert (outcome.kind, outcome.arrived) == ("incremental", (A3,))
    assert target.snaps("backup/d") == {A1: 0, A2: 0, A3: 1}
    assert not (target.files("backup/d") / "local.txt").exists()


def _size(where: Box, *send: str) -> int:
    out = where.side().run(["zfs", "send", "-n", "-P", *send])
    return int(out.splitlines()[-1].split("\t")[1])


def test_replace_destroys_the_targets_snapshots_only_when_chosen(boxes: tuple[Box, Box]) -> None:
    source, target = boxes
    snapshot(source, A1, 1)
    target.engine.create_dataset("backup/d")
    (target.files("backup/d") / "theirs.txt").write_text("not from the source")
    target.engine.create_snapshot("backup/d@theirs")
    with pytest.raises(ChainBroken, match="destroy its 1 snapshot"):
        replicate(source.side(), target.side(), JOB)
    assert target.snaps("backup/d") == {"theirs": 0}
    chosen = Job(JOB.source, JOB.target, JOB.eligible, TAG, choice=REPLACE)
    outcome = replicate(source.side(), target.side(), chosen)
    assert (outcome.kind, outcome.arrived) == ("full", (A1,))
    assert target.snaps("backup/d") == {A1: 1}
    assert not (target.files("backup/d") / "theirs.txt").exists()


def test_an_encrypted_source_is_always_sent_raw(boxes: tuple[Box, Box]) -> None:
    from replication.replications.engine.runner import raw_if_encrypted, send_argv

    source, _ = boxes
    props = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}
    source.engine.create_dataset("tank/vault", properties=props, key="correct horse battery")
    vault = Job("tank/vault", "backup/vault", chain.named_by(naming.DEFAULT_SCHEMA), TAG)
    assert raw_if_encrypted(source.side(), vault).raw
    assert not raw_if_encrypted(source.side(), JOB).raw  # tank/d is plain
    step = chain.Step(snapshot=A1, base=None, intermediates=False)
    assert send_argv(raw_if_encrypted(source.side(), vault), step)[:3] == ["zfs", "send", "-w"]


def test_a_raw_copy_is_stored_encrypted_and_opens_with_the_owners_passphrase(
    boxes: tuple[Box, Box],
) -> None:
    source, target = boxes
    secret = "correct horse battery"
    props = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}
    source.engine.create_dataset("tank/vault", properties=props, key=secret)
    (source.files("tank/vault") / "tax.txt").write_text("private")
    source.engine.create_snapshot(f"tank/vault@{A1}")
    vault = Job("tank/vault", "backup/vault", chain.named_by(naming.DEFAULT_SCHEMA), TAG)
    assert replicate(source.side(), target.side(), vault).kind == "full"
    source.engine.create_snapshot(f"tank/vault@{A2}")
    assert replicate(source.side(), target.side(), vault).arrived == (A2,)
    copy = target.engine.get_dataset("backup/vault")
    assert (copy.encryption, copy.encryption_root, copy.key_status) == (
        "aes-256-gcm",
        "backup/vault",
        "unavailable",
    )
    with pytest.raises(WrongKey):
        target.engine.load_key("backup/vault", "a guess, not the key")
    target.engine.load_key("backup/vault", secret)
    assert not target.engine.get_dataset("backup/vault").locked

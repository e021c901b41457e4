"""The sandbox's `zfs` command: send | receive between two pools as real processes, no mocks.

Every stream goes through a pipe from one process to another, both on the same sandbox root
at once (the sender waits on the pipe while the receiver lands each snapshot under the lock).
"""

from __future__ import annotations

import os
import random
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage.zfs.base import PoolLayout
from storage.zfs.sandbox import SandboxZfsEngine, paths

GIB = 1024**3
MIB = 1024**2
REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "storage.zfs.sandbox.zfs_cli"]
LIST = ["list", "-H", "-p", "-t", "snapshot", "-d", "1", "-s", "createtxg", "-o",
        "name,guid,createtxg"]  # fmt: skip
RECV = ["receive", "-s", "-u", "-o", "readonly=on"]


@dataclass
class Sandbox:
    """One sandbox root with pools `tank` (the source) and `backup` (the target)."""

    root: Path
    engine: SandboxZfsEngine

    def argv(self, *args: str) -> list[str]:
        return [*CLI, "--root", str(self.root), "--disks", "2", "--disk-gib", "2", *args]

    def zfs(self, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(self.argv(*args), input=input, capture_output=True, env=ENV,
                              cwd=REPO, check=False, timeout=60)  # fmt: skip

    def out(self, *args: str) -> str:
        done = self.zfs(*args)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode()

    def pipe(self, send: list[str], receive: list[str], limit: int | None = None) -> Piped:
        """`zfs send ... | [head -c limit |] zfs receive ...`, all running at once."""
        sender = subprocess.Popen(self.argv("send", *send), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=ENV, cwd=REPO)  # fmt: skip
        assert sender.stdout is not None
        feed = sender.stdout
        cutter = None
        if limit is not None:
            cutter = subprocess.Popen(["head", "-c", str(limit)], stdin=feed,
                                      stdout=subprocess.PIPE)  # fmt: skip
            assert cutter.stdout is not None
            feed = cutter.stdout
        receiver = subprocess.Popen(self.argv(*receive), stdin=feed, stderr=subprocess.PIPE,
                                    env=ENV, cwd=REPO)  # fmt: skip
        feed.close()
        sender.stdout.close()
        _, received_err = receiver.communicate(timeout=60)
        _, sent_err = sender.communicate(timeout=60)
        if cutter is not None:
            cutter.wait(timeout=60)
        return Piped(sender.returncode, sent_err.decode(), receiver.returncode,
                     received_err.decode())  # fmt: skip

    def snapshots(self, dataset: str) -> list[tuple[str, str, int]]:
        rows = [line.split("\t") for line in self.out(*LIST, dataset).splitlines()]
        return [(name.split("@")[1], guid, int(txg)) for name, guid, txg in rows]

    def prop(self, dataset: str, name: str) -> str:
        return self.out("get", "-H", "-p", "-o", "value", name, dataset).strip()

    def files(self, dataset: str) -> Path:
        return Path(self.engine.get_dataset(dataset).mountpoint or "")

    def copy(self, dataset: str, snap: str) -> Path:
        pool, _, rel = dataset.partition("/")
        return paths.node_dir(self.root / "pools" / pool, rel) / "snaps" / snap


@dataclass(frozen=True)
class Piped:
    sent: int
    sent_err: str
    received: int
    received_err: str


ENV = {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.fixture
def sbx(tmp_path: Path) -> Sandbox:
    root = tmp_path / "sbx"
    engine = SandboxZfsEngine(root=root, disk_count=2, disk_size=2 * GIB)
    disks = [d.path for d in engine.list_disks()]
    engine.create_pool("tank", PoolLayout("stripe", ((disks[0],),)))
    engine.create_pool("backup", PoolLayout("stripe", ((disks[1],),)))
    engine.create_dataset("tank/d")
    fill(Path(engine.get_dataset("tank/d").mountpoint or ""))
    return Sandbox(root, engine)


def fill(root: Path, seed: int = 1) -> None:
    """Files of every kind a stream carries: text, random data, sparse, empty, link, modes."""
    rng = random.Random(seed)
    (root / "a.txt").write_text(f"hello {seed}\n")
    (root / "sub" / "deeper").mkdir(parents=True, exist_ok=True)
    (root / "sub" / "data.bin").write_bytes(rng.randbytes(300_000))
    with open(root / "sub" / "sparse.img", "wb") as handle:
        handle.truncate(4 * MIB)
        handle.seek(2 * MIB)
        handle.write(rng.randbytes(8192))
    (root / "sub" / "deeper" / "empty").touch()
    (root / "secret").write_text("mode 640")
    (root / "secret").chmod(0o640)
    if not (root / "link").is_symlink():
        (root / "link").symlink_to("a.txt")
    (root / os.fsdecode(b"caf\xe9.txt")).write_text("a name that is not UTF-8")


def tree(path: Path) -> dict[str, tuple[object, ...]]:
    """What a tree holds: every entry's kind, mode, time and bytes."""
    found: dict[str, tuple[object, ...]] = {}
    for entry in sorted(path.rglob("*")):
        info = entry.lstat()
        rel = str(entry.relative_to(path))
        if entry.is_symlink():
            found[rel] = ("link", os.readlink(entry))
        elif entry.is_dir():
            found[rel] = ("dir", stat.S_IMODE(info.st_mode))
        else:
            found[rel] = ("file", stat.S_IMODE(info.st_mode), info.st_mtime_ns, entry.read_bytes())
    return found


def test_list_prints_guid_and_createtxg_oldest_first(sbx: Sandbox) -> None:
    for name in ("one", "two", "three"):
        sbx.engine.create_snapshot(f"tank/d@{name}")
    rows = sbx.snapshots("tank/d")
    assert [(name, txg) for name, _, txg in rows] == [("one", 1), ("two", 2), ("three", 3)]
    guids = [guid for _, guid, _ in rows]
    assert len(set(guids)) == 3
    assert all(guid.isdigit() and 0 < int(guid) < 2**64 for guid in guids)
    assert sbx.snapshots("tank/d") == rows  # stored, not drawn again
    missing = sbx.zfs(*LIST, "tank/nope")
    assert missing.returncode == 1
    assert missing.stderr.decode() == "cannot open 'tank/nope': dataset does not exist\n"


def test_full_then_incremental_streams_arrive_with_the_same_guids_and_bytes(
    sbx: Sandbox,
) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    assert sbx.pipe(["-L", "-e", "-c", "tank/d@one"], [*RECV, "backup/d"]).received == 0
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))
    (sbx.files("tank/d") / "a.txt").write_text("two\n")
    sbx.engine.create_snapshot("tank/d@two")
    assert sbx.pipe(["-i", "@one", "tank/d@two"], [*RECV, "backup/d"]).received == 0
    for name in ("three", "four", "five"):
        fill(sbx.files("tank/d"), seed=len(name))
        (sbx.files("tank/d") / f"{name}.txt").write_text(name)
        sbx.engine.create_snapshot(f"tank/d@{name}")
    assert sbx.pipe(["-I", "tank/d@two", "tank/d@five"], [*RECV, "backup/d"]).received == 0
    source, target = sbx.snapshots("tank/d"), sbx.snapshots("backup/d")
    assert [(n, g) for n, g, _ in target] == [(n, g) for n, g, _ in source]
    assert [txg for _, _, txg in target] == sorted(txg for _, _, txg in target)
    for name, _, _ in source:
        assert tree(sbx.copy("backup/d", name)) == tree(sbx.copy("tank/d", name))
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))
    assert sbx.engine.get_properties("backup/d", ["readonly"])["readonly"].value == "on"
    assert sbx.prop("backup/d", "written") == "0"


def test_a_dry_run_prints_the_exact_size_of_the_stream_and_a_send_repeats_its_bytes(
    sbx: Sandbox,
) -> None:
    for name in ("one", "two", "three"):
        (sbx.files("tank/d") / name).write_text(name * 1000)
        sbx.engine.create_snapshot(f"tank/d@{name}")
    for args in (["tank/d@one"], ["-i", "@one", "tank/d@three"], ["-I", "@one", "tank/d@three"]):
        stream = sbx.zfs("send", *args).stdout
        assert sbx.zfs("send", *args).stdout == stream
        lines = sbx.out("send", "-n", "-P", *args).splitlines()
        assert lines[-1] == f"size\t{len(stream)}"
    lines = sbx.out("send", "-n", "-P", "-I", "@one", "tank/d@three").splitlines()
    assert [line.split("\t")[:3] for line in lines[:-1]] == [
        ["incremental", "one", "tank/d@two"],
        ["incremental", "two", "tank/d@three"],
    ]
    assert sbx.out("send", "-n", "-P", "tank/d@one").startswith("full\ttank/d@one\t")


def test_written_counts_what_changed_since_the_newest_snapshot(sbx: Sandbox) -> None:
    assert int(sbx.prop("tank/d", "written")) > 300_000  # no snapshot: all of the data
    sbx.engine.create_snapshot("tank/d@one")
    out = sbx.out("get", "-H", "-p", "-o", "property,value", "written,receive_resume_token",
                  "tank/d")  # fmt: skip
    assert out == "written\t0\nreceive_resume_token\t-\n"
    (sbx.files("tank/d") / "a.txt").unlink()
    assert int(sbx.prop("tank/d", "written")) > 0
    sbx.engine.create_snapshot("tank/d@two")
    (sbx.files("tank/d") / "new.bin").write_bytes(b"x" * 50_000)
    assert int(sbx.prop("tank/d", "written")) >= 50_000
    bad = sbx.zfs("get", "-H", "-p", "-o", "property,value", "used", "tank/d")
    assert bad.returncode == 1
    assert b"invalid property 'used'" in bad.stderr


def test_holds_releases_and_destroys_in_openzfs_words(sbx: Sandbox) -> None:
    for name in ("a", "b", "c", "d"):
        sbx.engine.create_snapshot(f"tank/d@{name}")
    assert sbx.zfs("hold", "keep", "tank/d@a").returncode == 0
    twice = sbx.zfs("hold", "keep", "tank/d@a")
    assert twice.returncode == 1
    assert twice.stderr.decode() == (
        "cannot hold snapshot 'tank/d@a': tag already exists on this dataset\n"
    )
    held = sbx.zfs("destroy", "tank/d@a,b")
    assert held.returncode == 1
    assert held.stderr.decode() == "cannot destroy snapshot tank/d@a: dataset is busy\n"
    assert [n for n, _, _ in sbx.snapshots("tank/d")] == ["a", "b", "c", "d"]  # all or none
    assert sbx.zfs("release", "keep", "tank/d@a").returncode == 0
    again = sbx.zfs("release", "keep", "tank/d@a")
    assert again.stderr.decode() == (
        "cannot release hold from snapshot 'tank/d@a': no such tag on this dataset\n"
    )
    assert sbx.zfs("destroy", "tank/d@a,b,c").returncode == 0
    assert [n for n, _, _ in sbx.snapshots("tank/d")] == ["d"]
    gone = sbx.zfs("hold", "keep", "tank/d@a")
    assert gone.stderr.decode() == "cannot hold snapshot 'tank/d@a': dataset does not exist\n"


def test_receives_refused_in_openzfs_words_leave_the_target_as_it_was(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    sbx.engine.create_snapshot("tank/d@two")
    sbx.engine.create_snapshot("tank/d@three")
    missing = sbx.pipe(["-i", "@one", "tank/d@two"], [*RECV, "backup/d"])
    assert missing.received == 1
    assert "cannot receive incremental stream: destination 'backup/d' does not exist" in (
        missing.received_err
    )
    orphan = sbx.pipe(["tank/d@one"], [*RECV, "backup/no/d"])
    assert orphan.received_err.splitlines() == [
        "cannot open 'backup/no': dataset does not exist",
        "cannot receive new filesystem stream: unable to restore to destination",
    ]
    assert sbx.pipe(["tank/d@one"], [*RECV, "backup/d"]).received == 0
    exists = sbx.pipe(["tank/d@two"], [*RECV, "backup/d"])
    assert exists.received_err == (
        "cannot receive new filesystem stream: destination 'backup/d' exists\n"
        "must specify -F to overwrite it\n"
    )
    snapshotted = sbx.pipe(["tank/d@two"], [*RECV, "-F", "backup/d"])
    assert snapshotted.received_err == (
        "cannot receive new filesystem stream: destination has snapshots (eg. backup/d@one)\n"
        "must destroy them to overwrite it\n"
    )
    unrelated = sbx.pipe(["-i", "@two", "tank/d@three"], [*RECV, "backup/d"])
    assert unrelated.received_err == (
        "cannot receive incremental stream: most recent snapshot of backup/d does not\n"
        "match incremental source\n"
    )
    (sbx.files("backup/d") / "mine.txt").write_text("written on the target")
    modified = sbx.pipe(["-i", "@one", "tank/d@two"], [*RECV, "backup/d"])
    assert modified.received_err == (
        "cannot receive incremental stream: destination backup/d has been modified\n"
        "since most recent snapshot\n"
    )
    assert [n for n, _, _ in sbx.snapshots("backup/d")] == ["one"]
    assert (sbx.files("backup/d") / "mine.txt").exists()
    nothing = sbx.zfs("send", "tank/d@nope")
    assert nothing.stderr.decode() == "cannot open 'tank/d@nope': dataset does not exist\n"


def test_force_rolls_an_incremental_target_back_to_the_base_unless_a_newer_one_is_held(
    sbx: Sandbox,
) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    assert sbx.pipe(["tank/d@one"], [*RECV, "backup/d"]).received == 0
    (sbx.files("tank/d") / "a.txt").write_text("source moved on\n")
    sbx.engine.create_snapshot("tank/d@two")
    (sbx.files("backup/d") / "mine.txt").write_text("target moved on")
    sbx.engine.create_snapshot("backup/d@mine")
    sbx.engine.hold("backup/d@mine", "keep")
    held = sbx.pipe(["-i", "@one", "tank/d@two"], [*RECV, "-F", "backup/d"])
    assert held.received_err == "cannot receive incremental stream: pool or dataset is busy\n"
    assert [n for n, _, _ in sbx.snapshots("backup/d")] == ["one", "mine"]
    sbx.engine.release("backup/d@mine", "keep")
    assert sbx.pipe(["-i", "@one", "tank/d@two"], [*RECV, "-F", "backup/d"]).received == 0
    assert [n for n, _, _ in sbx.snapshots("backup/d")] == ["one", "two"]
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))


def test_force_replaces_a_target_without_snapshots(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    sbx.engine.create_dataset("backup/d")
    (sbx.files("backup/d") / "old.txt").write_text("replaced")
    assert sbx.pipe(["tank/d@one"], [*RECV, "-F", "backup/d"]).received == 0
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))
    assert [n for n, _, _ in sbx.snapshots("backup/d")] == ["one"]


def test_a_cut_full_stream_leaves_a_token_and_the_rest_completes_it(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    whole = len(sbx.zfs("send", "tank/d@one").stdout)
    cut = sbx.pipe(["tank/d@one"], [*RECV, "backup/d"], limit=100_000)
    assert cut.received == 1
    assert cut.received_err == "cannot receive new filesystem stream: failed to read from stream\n"
    assert sbx.snapshots("backup/d") == []  # the dataset exists, no snapshot yet
    token = sbx.prop("backup/d", "receive_resume_token")
    assert token.startswith("1-")
    size = int(sbx.out("send", "-n", "-P", "-t", token).splitlines()[-1].split("\t")[1])
    rest = sbx.zfs("send", "-t", token).stdout
    assert len(rest) == size
    assert len(rest) < whole
    assert whole - 100_000 < len(rest) < whole - 100_000 + 200  # a short resume header
    done = sbx.zfs("receive", "-s", "-u", "backup/d", input=rest)
    assert done.returncode == 0, done.stderr
    assert sbx.snapshots("backup/d")[0][:2] == sbx.snapshots("tank/d")[0][:2]
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))
    assert sbx.prop("backup/d", "receive_resume_token") == "-"


def test_a_stream_cut_twice_resumes_twice(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    sbx.pipe(["tank/d@one"], [*RECV, "backup/d"], limit=50_000)
    first = sbx.prop("backup/d", "receive_resume_token")
    again = sbx.pipe(["-t", first], [*RECV, "backup/d"], limit=100_000)
    assert again.received == 1
    second = sbx.prop("backup/d", "receive_resume_token")
    assert second != first
    assert sbx.pipe(["-t", second], [*RECV, "backup/d"]).received == 0
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))


def test_a_cut_incremental_keeps_the_snapshots_that_arrived_whole(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    sbx.pipe(["tank/d@one"], [*RECV, "backup/d"])
    for name in ("two", "three"):
        fill(sbx.files("tank/d"), seed=len(name))
        sbx.engine.create_snapshot(f"tank/d@{name}")
    sections = sbx.out("send", "-n", "-P", "-I", "@one", "tank/d@three").splitlines()
    first = int(sections[0].split("\t")[3])
    cut = sbx.pipe(["-I", "@one", "tank/d@three"], [*RECV, "backup/d"], limit=first + 30_000)
    assert cut.received_err == "cannot receive incremental stream: failed to read from stream\n"
    assert [n for n, _, _ in sbx.snapshots("backup/d")] == ["one", "two"]
    token = sbx.prop("backup/d", "receive_resume_token")
    assert sbx.pipe(["-t", token], [*RECV, "backup/d"]).received == 0
    assert sbx.snapshots("backup/d")[2][:2] == sbx.snapshots("tank/d")[2][:2]
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))


def test_a_killed_sender_leaves_a_token(sbx: Sandbox) -> None:
    (sbx.files("tank/d") / "big.bin").write_bytes(random.Random(3).randbytes(8 * MIB))
    sbx.engine.create_snapshot("tank/d@one")
    sender = subprocess.Popen(sbx.argv("send", "tank/d@one"), stdout=subprocess.PIPE,
                              env=ENV, cwd=REPO)  # fmt: skip
    receiver = subprocess.Popen(sbx.argv(*RECV, "backup/d"), stdin=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=ENV, cwd=REPO)  # fmt: skip
    assert sender.stdout is not None
    assert receiver.stdin is not None
    receiver.stdin.write(sender.stdout.read(1 * MIB))
    sender.kill()
    sender.wait()
    receiver.stdin.close()
    assert receiver.wait(timeout=60) == 1
    token = sbx.prop("backup/d", "receive_resume_token")
    assert sbx.pipe(["-t", token], [*RECV, "backup/d"]).received == 0
    assert tree(sbx.files("backup/d")) == tree(sbx.files("tank/d"))
    assert not list((sbx.root / "tmp").iterdir())  # the killed sender's links were swept


def test_without_s_a_cut_leaves_nothing_and_abort_discards_a_partial_receive(
    sbx: Sandbox,
) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    plain = sbx.pipe(["tank/d@one"], ["receive", "-u", "backup/d"], limit=100_000)
    assert plain.received == 1
    assert sbx.zfs(*LIST, "backup/d").returncode == 1  # no dataset at all
    sbx.pipe(["tank/d@one"], [*RECV, "backup/d"], limit=100_000)
    busy = sbx.pipe(["tank/d@one"], [*RECV, "-F", "backup/d"])
    assert busy.received_err == (
        "cannot receive new filesystem stream: destination backup/d contains"
        ' partially-complete state from "zfs receive -s".\n'
    )
    assert sbx.zfs("receive", "-A", "backup/d").returncode == 0
    assert sbx.zfs(*LIST, "backup/d").returncode == 1  # made by the cut receive: gone
    assert sbx.pipe(["tank/d@one"], [*RECV, "backup/d"]).received == 0
    sbx.engine.create_snapshot("tank/d@two")
    sbx.pipe(["-i", "@one", "tank/d@two"], [*RECV, "backup/d"], limit=50_000)
    assert sbx.prop("backup/d", "receive_resume_token") != "-"
    assert sbx.zfs("receive", "-A", "backup/d").returncode == 0
    assert sbx.prop("backup/d", "receive_resume_token") == "-"
    assert [n for n, _, _ in sbx.snapshots("backup/d")] == ["one"]
    nothing = sbx.zfs("receive", "-A", "backup/d")
    assert nothing.stderr.decode() == (
        "'backup/d' does not have any resumable receive state to abort\n"
    )


def test_a_token_whose_snapshot_is_gone_no_longer_exists(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    sbx.pipe(["tank/d@one"], [*RECV, "backup/d"], limit=100_000)
    token = sbx.prop("backup/d", "receive_resume_token")
    sbx.engine.destroy_snapshots("tank/d", ["one"])
    for args in (["-t", token], ["-n", "-P", "-t", token]):
        stale = sbx.zfs("send", *args)
        assert stale.returncode == 1
        assert stale.stderr.decode() == (
            "cannot resume send: 'tank/d@one' used in the initial send no longer exists\n"
        )
    corrupt = sbx.zfs("send", "-t", token[:-5])
    assert corrupt.stderr.decode() == "cannot resume send: resume token is corrupt\n"


def test_zvols_go_whole_incrementally_and_after_a_cut(sbx: Sandbox) -> None:
    sbx.engine.create_zvol("tank/vol", size=16 * MIB, sparse=True)
    volume = sbx.engine.zvol_path("tank/vol")
    rng = random.Random(9)
    with open(volume, "r+b") as handle:
        for offset in (0, 5 * MIB, 12 * MIB):
            handle.seek(offset)
            handle.write(rng.randbytes(256 * 1024))
    sbx.engine.create_snapshot("tank/vol@one")
    stream = sbx.zfs("send", "tank/vol@one").stdout
    assert len(stream) < 2 * MIB  # holes are not sent
    assert sbx.pipe(["tank/vol@one"], [*RECV, "backup/vol"]).received == 0
    assert sbx.engine.zvol_path("backup/vol").read_bytes() == volume.read_bytes()
    with open(volume, "r+b") as handle:
        handle.seek(8 * MIB)
        handle.write(rng.randbytes(512 * 1024))
    sbx.engine.grow_zvol("tank/vol", 32 * MIB)
    sbx.engine.create_snapshot("tank/vol@two")
    sbx.pipe(["-i", "@one", "tank/vol@two"], [*RECV, "backup/vol"], limit=300_000)
    token = sbx.prop("backup/vol", "receive_resume_token")
    assert sbx.pipe(["-t", token], [*RECV, "backup/vol"]).received == 0
    assert sbx.engine.zvol_path("backup/vol").read_bytes() == volume.read_bytes()
    target = sbx.engine.get_dataset("backup/vol")
    assert target.type == "volume"
    assert sbx.engine.get_properties("backup/vol", ["volsize"])["volsize"].value == str(32 * MIB)
    assert [g for _, g, _ in sbx.snapshots("backup/vol")] == [
        g for _, g, _ in sbx.snapshots("tank/vol")
    ]


def test_opening_a_sandbox_with_other_disk_settings_changes_nothing(sbx: Sandbox) -> None:
    sbx.engine.create_snapshot("tank/d@one")
    disks = {p.name: p.stat().st_size for p in (sbx.root / "disks").iterdir()}
    state = (sbx.root / "state.json").read_bytes()
    plain = [*CLI, "--root", str(sbx.root), *LIST, "tank/d"]  # the panel's 6 disks of 8 GiB
    done = subprocess.run(plain, capture_output=True, env=ENV, cwd=REPO, check=True)
    assert done.stdout.decode().startswith("tank/d@one\t")
    assert {p.name: p.stat().st_size for p in (sbx.root / "disks").iterdir()} == disks
    assert (sbx.root / "state.json").read_bytes() == state

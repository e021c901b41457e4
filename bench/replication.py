#!/usr/bin/env python3
"""A replication task's throughput against a plain `zfs send | ssh | zfs recv`, in one run.

    bash scripts/zfsvm.sh run python3 bench/replication.py [--mib 256] [--changes 4,16,64]

Runs in the ZFS VM (root, real OpenZFS): two pools stand for two boxes, the other box is
root@127.0.0.1 through a real sshd (replication/tests/sshd.py). The same full stream is sent
three times, alternating, by the task's engine (runner.replicate: the pump in Python, counted
and watched) and by a shell-free pipe of the same three programs (`zfs send -L -e -c`, `ssh`
that runs `zfs receive`); prints each, their medians and the ratio (target >= 0.9). Then the
time of a run with nothing to send (the engine's fixed cost: its own zfs commands), and
incremental runs after writing --changes MiB each: the time against the size of the change.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replication.connections.engine import hostkeys, keys
from replication.connections.engine.ssh import Remote
from replication.replications.engine import chain
from replication.replications.engine.runner import Job, replicate
from replication.replications.engine.sides import Side, over_ssh
from replication.tests.sshd import Sshd

SCHEMA = "bench-%Y-%m-%d_%H-%M-%S"
MIB = 1 << 20
DISKS = ("/dev/vdc", "/dev/vdd")


def zfs(*args: str) -> None:
    subprocess.run(["zfs", *args], check=True)


def snapshot(dataset: str, index: int) -> str:
    name = time.strftime(SCHEMA, time.gmtime(1_700_000_000 + index * 60))
    zfs("snapshot", f"{dataset}@{name}")
    return name


def fill(dataset: str, name: str, mib: int) -> None:
    """Half random, half text: what a family's share holds, roughly."""
    with open(f"/{dataset}/{name}", "wb") as out:
        for i in range(mib):
            out.write(os.urandom(MIB // 2) + (b"%08d the family's notes\n" % i) * (MIB // 64))


def plain(prefix: list[str], dataset: str, snap: str, target: str) -> float:
    """`zfs send | ssh zfs receive` as two processes joined by a pipe, no Python between."""
    began = time.monotonic()
    send = subprocess.Popen(["zfs", "send", "-L", "-e", "-c", f"{dataset}@{snap}"],
                            stdout=subprocess.PIPE)  # fmt: skip
    receive = [*prefix, shlex.join(["zfs", "receive", "-s", "-u", target])]
    subprocess.run(receive, stdin=send.stdout, check=True)
    assert send.stdout is not None
    send.stdout.close()
    send.wait()
    return time.monotonic() - began


def engine(there: Side, dataset: str, target: str) -> float:
    began = time.monotonic()
    job = Job(dataset, target, chain.named_by(SCHEMA), "bench")
    replicate(Side(), there, job)
    return time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--changes", default="4,16,64")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    subprocess.run(["zpool", "create", "-f", "bsrc", DISKS[0]], check=True)
    subprocess.run(["zpool", "create", "-f", "bdst", DISKS[1]], check=True)
    try:
        run(args)
    finally:
        subprocess.run(["zpool", "destroy", "-f", "bsrc"], check=False)
        subprocess.run(["zpool", "destroy", "-f", "bdst"], check=False)


def run(args: argparse.Namespace) -> None:
    zfs("create", "bsrc/data")
    fill("bsrc/data", "files.bin", args.mib)
    first = snapshot("bsrc/data", 0)
    with tempfile.TemporaryDirectory() as folder:
        server = Sshd(Path(folder))
        server.start()
        pair = keys.generate("bench")
        server.authorize(pair.public)
        remote = Remote("127.0.0.1", server.port, "root", pair.private,
                        tuple(hostkeys.scan("127.0.0.1", server.port)))  # fmt: skip
        try:
            with over_ssh(remote) as there:
                full(args, there, first)
                increments(args, there)
        finally:
            server.stop()


def full(args: argparse.Namespace, there: Side, first: str) -> None:
    there.run(["true"])  # the shared ssh connection up before either is timed
    # A discarded first copy: the source comes from the ARC for every timed one, not from the
    # disk for whichever went first.
    plain(there.prefix, "bsrc/data", first, "bdst/warmup")
    zfs("destroy", "-r", "bdst/warmup")
    times: dict[str, list[float]] = {"engine": [], "plain": []}
    for round_ in range(args.rounds):
        # Each goes first in every other round: what the order favours cancels in the median.
        for kind in ("engine", "plain") if round_ % 2 == 0 else ("plain", "engine"):
            target = f"bdst/{kind}{round_}"
            took = (engine(there, "bsrc/data", target) if kind == "engine"
                    else plain(there.prefix, "bsrc/data", first, target))  # fmt: skip
            times[kind].append(took)
            if kind == "engine":  # the task's hold on its base, on both sides
                Side().release(f"bsrc/data@{first}", "bench")
                there.release(f"{target}@{first}", "bench")
            zfs("destroy", "-r", target)
            print(f"full {kind:<6} round {round_}: {args.mib / took:6.1f} MiB/s ({took:.1f} s)")
    engine_mib = args.mib / statistics.median(times["engine"])
    plain_mib = args.mib / statistics.median(times["plain"])
    # Each round's pair ran back to back: their ratio cancels the emulator's swings by the hour.
    paired = statistics.median(p / e for e, p in zip(times["engine"], times["plain"], strict=True))
    print(f"median: engine {engine_mib:.1f} MiB/s, plain pipe {plain_mib:.1f} MiB/s; "
          f"median of the rounds' ratios {paired:.2f} (target >= 0.9)")  # fmt: skip


def increments(args: argparse.Namespace, there: Side) -> None:
    engine(there, "bsrc/data", "bdst/kept")
    idle = [engine(there, "bsrc/data", "bdst/kept") for _ in range(3)]
    print(f"a run with nothing to send: {statistics.median(idle):.1f} s (its own commands; "
          "the engine's fixed cost per run)")  # fmt: skip
    sizes = [int(x) for x in args.changes.split(",")]
    for index, mib in enumerate(sizes, start=1):
        fill("bsrc/data", f"change{index}.bin", mib)
        snapshot("bsrc/data", index)
        took = engine(there, "bsrc/data", "bdst/kept")
        print(f"incremental after {mib:4d} MiB written: {took:6.1f} s")


if __name__ == "__main__":
    main()

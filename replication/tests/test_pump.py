"""The transfer with real processes at both ends: bytes, failures, stalls, the limit.

Each behaviour holds both ways a stream goes: the two ends joined on one pipe (no limit) and
through this process (a bandwidth limit far above what the tests move)."""

from __future__ import annotations

import hashlib
import itertools
import sys
import time
from pathlib import Path

import pytest

from replication.replications.engine.pump import Limits, Progress, Stalled, TransferFailed, transfer


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def writes(count: int, then: str = "") -> list[str]:
    """A sender writing `count` seeded random bytes, then running `then`."""
    return python(
        "import random, sys; sys.stdout.buffer.write(random.Random(5).randbytes("
        f"{count})); sys.stdout.flush(); {then or 'pass'}"
    )


JOINED, PUMPED = Limits(), Limits(bandwidth=1 << 40)
WAYS = pytest.mark.parametrize("limits", [JOINED, PUMPED], ids=["joined", "pumped"])


@WAYS
def test_every_byte_arrives_in_order(tmp_path: Path, limits: Limits) -> None:
    out = tmp_path / "received"
    count = 5 * (1 << 20) + 17
    moved = transfer(writes(count), ["dd", f"of={out}", "status=none"], limits)
    expected = __import__("random").Random(5).randbytes(count)
    assert moved == count
    assert hashlib.sha256(out.read_bytes()).digest() == hashlib.sha256(expected).digest()


def test_the_receiver_s_count_stands_when_the_sender_is_ssh(tmp_path: Path) -> None:
    """A pull: the sender here is ssh, whose shared connection writes the bytes from another
    process; the receiver's read count is the stream's, give or take its own start-up reads."""
    count = 3 * (1 << 20)
    seen: list[Progress] = []
    moved = transfer(writes(count, "import time; time.sleep(1.5)"),
                     ["dd", f"of={tmp_path / 'x'}", "status=none"], report=seen.append,
                     counted="receiver")  # fmt: skip
    assert count <= moved < count + (64 << 10)
    assert (tmp_path / "x").stat().st_size == count
    assert seen
    assert seen[-1].sent <= moved


@WAYS
def test_a_failing_receiver_is_reported_in_its_own_words(limits: Limits) -> None:
    receiver = python("import sys; sys.stderr.write('cannot receive: destination exists\\n');"
                      " sys.exit(1)")  # fmt: skip
    with pytest.raises(TransferFailed, match="cannot receive: destination exists"):
        transfer(writes(4 << 20), receiver, limits)


@WAYS
def test_a_failing_sender_is_reported_even_when_the_receiver_took_its_bytes(
    tmp_path: Path, limits: Limits
) -> None:
    sender = writes(1000, "sys.stderr.write('cannot send: snapshot gone\\n'); sys.exit(2)")
    with pytest.raises(TransferFailed, match="cannot send: snapshot gone"):
        transfer(sender, ["dd", f"of={tmp_path / 'x'}", "status=none"], limits)


@WAYS
def test_a_silent_sender_is_a_stall_and_both_ends_are_stopped(
    tmp_path: Path, limits: Limits
) -> None:
    began = time.monotonic()
    with pytest.raises(Stalled, match="No data for 1 s"):
        transfer(writes(10, "import time; time.sleep(60)"), ["dd", f"of={tmp_path / 'x'}",
                 "status=none"], Limits(limits.bandwidth, stall_after=1.0))  # fmt: skip
    assert time.monotonic() - began < 30  # not the sender's 60 s: it was killed


def test_the_bandwidth_limit_holds_and_progress_is_reported(tmp_path: Path) -> None:
    seen: list[Progress] = []
    began = time.monotonic()
    transfer(writes(3 << 20), ["dd", f"of={tmp_path / 'x'}", "status=none"],
             Limits(bandwidth=1 << 20), seen.append)  # fmt: skip
    assert time.monotonic() - began >= 2.0  # 3 MiB at 1 MiB/s, the first MiB free
    assert seen
    assert all(b.sent > a.sent for a, b in itertools.pairwise(seen))
    assert all(report.rate < 1.5 * (1 << 20) for report in seen)

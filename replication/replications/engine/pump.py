"""The bytes of one transfer, from `zfs send` (here or over ssh) to `zfs recv` (here or over ssh).

The stream passes through this process rather than a shell pipe: that is where it is counted
(progress, rate, time left), held to a bandwidth limit, and watched for a stall (no byte for
`stall_after` seconds: the link is dead even if TCP has not noticed). Both ends are argument
lists run without a shell. The bytes move from pipe to pipe with splice(2), up to 1 MiB at a
time: this process counts them without copying them (bench/replication.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

CHUNK = 1 << 20
REPORT_EVERY = 1.0  # seconds between progress reports


class TransferFailed(Exception):
    """The sender or the receiver failed; the message carries its own last words."""


class Stalled(TransferFailed):
    """No byte arrived for the set time: both ends were stopped (the next run resumes)."""


@dataclass(frozen=True)
class Progress:
    """Bytes so far, the recent rate (bytes/s) and the seconds it has run."""

    sent: int
    rate: float
    seconds: float


@dataclass(frozen=True)
class Limits:
    """A bandwidth limit in bytes/s (0: none) and the seconds without a byte that mean a stall."""

    bandwidth: int = 0
    stall_after: float = 120.0


Report = Callable[[Progress], None]


def transfer(
    send: Sequence[str],
    receive: Sequence[str],
    limits: Limits = Limits(),
    report: Report | None = None,
) -> int:
    """Run send → receive to the end; the bytes moved, or TransferFailed / Stalled."""
    sender = subprocess.Popen(send, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    receiver = subprocess.Popen(receive, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        moved = _copy(sender, receiver, limits, report or (lambda _: None))
    except BaseException:
        _stop(sender, receiver)
        raise
    return _finish(sender, receiver, moved)


def _copy(
    sender: subprocess.Popen[bytes],
    receiver: subprocess.Popen[bytes],
    limits: Limits,
    report: Report,
) -> int:
    """Copy until the sender's end of stream; stop both ends on a stall or a dead receiver."""
    assert sender.stdout is not None
    assert receiver.stdin is not None
    meter = _Meter(limits.bandwidth)
    source, sink = sender.stdout.fileno(), receiver.stdin.fileno()
    _widen(source, sink)
    while True:
        ready, _, _ = select.select([source], [], [], limits.stall_after)
        if not ready:
            raise Stalled(f"No data for {limits.stall_after:.0f} s: the transfer was stopped.")
        try:
            # Pipe to pipe inside the kernel: the bytes are counted, never copied through here.
            moved = os.splice(source, sink, CHUNK)
        except BrokenPipeError:
            return meter.sent  # the receiver quit: _finish reports its own words
        if not moved:
            return meter.sent
        meter.add(moved, report)


def _widen(*pipes: int) -> None:
    """Give both pipes 1 MiB (64 KiB by default): each wake-up here moves up to that much, so
    the pump wakes 16 times less often than a 64 KiB pipe would make it."""
    for pipe in pipes:
        with contextlib.suppress(OSError):  # above /proc/sys/fs/pipe-max-size: keep the default
            fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, CHUNK)


def _finish(sender: subprocess.Popen[bytes], receiver: subprocess.Popen[bytes], moved: int) -> int:
    """Close the stream, wait for both ends; the bytes moved, or the failing end's words."""
    assert receiver.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        receiver.stdin.close()
    received = receiver.wait()
    killed = received != 0 and sender.poll() is None
    if killed:
        sender.kill()  # nobody reads any more
    sent = sender.wait()
    if sent != 0 and not killed:  # the sender's failure is the cause of the receiver's
        raise TransferFailed(_last_words(sender, f"the sender exited with {sent}"))
    if received != 0:
        raise TransferFailed(_last_words(receiver, f"the receiver exited with {received}"))
    return moved


def _stop(*processes: subprocess.Popen[bytes]) -> None:
    """Kill and reap both ends (a stall, an error here)."""
    for process in processes:
        if process.poll() is None:
            process.kill()
    for process in processes:
        process.wait()


def _last_words(process: subprocess.Popen[bytes], fallback: str) -> str:
    """The last line the process wrote to stderr."""
    assert process.stderr is not None
    lines = process.stderr.read().decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else fallback


class _Meter:
    """Counts bytes, holds them to the bandwidth limit and reports about once a second."""

    def __init__(self, bandwidth: int) -> None:
        self.bandwidth = bandwidth
        self.started = self.reported = time.monotonic()
        self.sent = self.at_report = 0

    def add(self, count: int, report: Report) -> None:
        self.sent += count
        now = time.monotonic()
        if self.bandwidth:
            ahead = self.sent / self.bandwidth - (now - self.started)
            if ahead > 0:
                time.sleep(ahead)
                now = time.monotonic()
        if now - self.reported >= REPORT_EVERY:
            rate = (self.sent - self.at_report) / (now - self.reported)
            report(Progress(self.sent, rate, now - self.started))
            self.reported, self.at_report = now, self.sent

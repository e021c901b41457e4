"""The bytes of one transfer, from `zfs send` (here or over ssh) to `zfs recv` (here or over ssh).

Every transfer is counted (progress, rate, time left) and watched for a stall (no byte for
`stall_after` seconds: the link is dead even if TCP has not noticed); both ends are argument
lists run without a shell.

- Without a bandwidth limit the two ends share one pipe, as a shell's `|` would join them, and
  the bytes are counted by the kernel: the write count (/proc/<pid>/io) of the sender, or the
  read count of the receiver, whichever runs here (the other is ssh, whose shared connection
  moves the bytes in another process). A hop through this process cost up to 15% of the rate
  under emulation (bench/replication.py).
- With a limit the stream passes through this process, which holds it to the rate: the bytes
  move from pipe to pipe with splice(2), up to 1 MiB at a time, counted without being copied.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

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
# The end that runs here, as a program of its own (not ssh): its kernel counters are the stream's.
Counted = Literal["sender", "receiver"]


def transfer(
    send: Sequence[str],
    receive: Sequence[str],
    limits: Limits = Limits(),
    report: Report | None = None,
    counted: Counted = "sender",
) -> int:
    """Run send → receive to the end; the bytes moved, or TransferFailed / Stalled."""
    tell = report or (lambda _: None)
    if limits.bandwidth:
        return _pumped(send, receive, limits, tell)
    return _joined(send, receive, limits, tell, counted)


def _pumped(send: Sequence[str], receive: Sequence[str], limits: Limits, tell: Report) -> int:
    """Both ends joined through this process, which holds the stream to the limit."""
    sender = subprocess.Popen(send, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    receiver = subprocess.Popen(receive, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    return _ended(sender, receiver, lambda: _copy(sender, receiver, limits, tell))


def _joined(
    send: Sequence[str], receive: Sequence[str], limits: Limits, tell: Report, counted: Counted
) -> int:
    """Both ends on one pipe; the bytes read from the kernel's count of the end that runs here."""
    sender = subprocess.Popen(send, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert sender.stdout is not None
    _widen(sender.stdout.fileno())
    try:
        receiver = subprocess.Popen(receive, stdin=sender.stdout, stderr=subprocess.PIPE)
    except BaseException:
        _stop(sender)
        raise
    sender.stdout.close()  # only the two ends hold the pipe: each sees the other go
    watched = sender if counted == "sender" else receiver
    return _ended(sender, receiver, lambda: _watch(watched, counted, limits, tell))


def _ended(
    sender: subprocess.Popen[bytes], receiver: subprocess.Popen[bytes], move: Callable[[], int]
) -> int:
    """The bytes `move` counted once both ends have exited; both stopped if it fails."""
    try:
        moved = move()
    except BaseException:
        _stop(sender, receiver)
        raise
    return _finish(sender, receiver, moved)


def _watch(process: subprocess.Popen[bytes], counted: Counted, limits: Limits, tell: Report) -> int:
    """Report the counted end's bytes about once a second until it exits; Stalled if they do
    not grow for `stall_after` seconds. Its exit wakes this at once (a pidfd), and its count
    is read before it is reaped, so the last bytes are counted too."""
    meter = _Meter(0)
    field = "wchar" if counted == "sender" else "rchar"
    changed = time.monotonic()
    pidfd = os.pidfd_open(process.pid)
    try:
        while True:
            exited = bool(select.select([pidfd], [], [], REPORT_EVERY)[0])
            count = _io_count(process.pid, field)
            if count > meter.sent:
                meter.add(count - meter.sent, tell)
                changed = time.monotonic()
            if exited:
                return meter.sent
            if time.monotonic() - changed >= limits.stall_after:
                raise Stalled(f"No data for {limits.stall_after:.0f} s: the transfer was stopped.")
    finally:
        os.close(pidfd)


def _io_count(pid: int, field: str) -> int:
    """The bytes a process has written (wchar) or read (rchar) through the kernel so far."""
    with open(f"/proc/{pid}/io", encoding="ascii") as counters:
        for line in counters:
            name, _, value = line.partition(":")
            if name == field:
                return int(value)
    return 0


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
    if receiver.stdin is not None:  # the pump's own end of the pipe
        with contextlib.suppress(BrokenPipeError):
            receiver.stdin.close()
    received = receiver.wait()
    if received != 0 and sender.poll() is None:
        sender.kill()  # nobody reads any more
    sent = sender.wait()
    said = _last_words(sender, f"the sender exited with {sent}") if sent != 0 else ""
    # The sender's failure is the cause of the receiver's, unless it only found nobody reading.
    if sent != 0 and not (received != 0 and _lost_its_reader(sent, said)):
        raise TransferFailed(said)
    if received != 0:
        raise TransferFailed(_last_words(receiver, f"the receiver exited with {received}"))
    return moved


def _lost_its_reader(status: int, said: str) -> bool:
    """The sender ended because its reader had gone: killed here, by SIGPIPE, or EPIPE."""
    return status in (-signal.SIGKILL, -signal.SIGPIPE) or "Broken pipe" in said


def _stop(*processes: subprocess.Popen[bytes]) -> None:
    """Kill and reap the ends (a stall, an error here)."""
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

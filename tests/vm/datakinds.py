"""The four kinds of data of the VM lane's copy experiments, the same bytes for a given seed.

already-compressed (zlib streams, as in .gz/.png/.docx), random (encrypted or noise),
binaries (executable-like code and tables: compressible) and text (repetitive log lines).
Standard library only: the host helper (tests/vm/host_checks.py) generates them to copy
over a share, and anyone may regenerate them from (kind, size, seed) to compare.
"""

from __future__ import annotations

import functools
import random
import struct
import zlib
from collections.abc import Callable

KINDS = ("compressed", "random", "binaries", "text")
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "disk",
    "pool",
    "dataset",
    "snapshot",
    "scrub",
    "resilver",
    "write",
    "read",
    "sync",
    "client",
    "server",
    "share",
    "user",
    "group",
    "error",
    "warning",
    "info",
    "debug",
    "started",
    "stopped",
    "ok",
    "failed",
    "timeout",
    "retry",
    "cache",
    "hit",
    "miss",
    "block",
    "record",
    "mirror",
    "raidz",
    "spare",
    "online",
    "degraded",
]
SERVICES = ("smbd", "nfsd", "zed", "kernel", "cron", "sshd", "nasui", "celery")


def text(size: int, seed: int) -> bytes:
    """Syslog-like lines from a small vocabulary: repetitive, like real logs."""
    rng = random.Random(seed)
    lines, total = [], 0
    while total < size:
        stamp = (
            f"2024-05-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        )
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12)))
        line = f"{stamp} nas {rng.choice(SERVICES)}[{rng.randint(100, 9999)}]: {words}\n"
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()[:size]


def compressed(size: int, seed: int) -> bytes:
    """zlib streams of text, concatenated: little left for ZFS to gain."""
    chunks, total, part = [], 0, 0
    while total < size:
        chunk = zlib.compress(text(256 * 1024, seed * 1000 + part), 9)
        chunks.append(chunk)
        total += len(chunk)
        part += 1
    return b"".join(chunks)[:size]


def noise(size: int, seed: int) -> bytes:
    """Incompressible bytes."""
    return random.Random(seed).randbytes(size)


def binaries(size: int, seed: int) -> bytes:
    """Executable-like: code from a small set of instructions, tables, zero-padded sections."""
    rng = random.Random(seed)
    opcodes = [rng.randbytes(rng.randint(1, 4)) for _ in range(48)]
    out = bytearray()
    while len(out) < size:
        for _ in range(rng.randint(500, 3000)):  # code: opcodes with small operands
            out += rng.choice(opcodes) + struct.pack("<i", rng.randint(-512, 4096))
        base = rng.randint(0, 1 << 20)
        for index in range(rng.randint(64, 512)):  # a table: ids, offsets, sizes, flags
            out += struct.pack("<IIHH", base + index, base + 16 * index, rng.randint(0, 999), 1)
        out += bytes(-len(out) % 4096)  # sections start on page boundaries
    return bytes(out[:size])


GENERATORS: dict[str, Callable[[int, int], bytes]] = {
    "compressed": compressed,
    "random": noise,
    "binaries": binaries,
    "text": text,
}


@functools.lru_cache(maxsize=8)
def generate(kind: str, size: int, seed: int) -> bytes:
    """`size` bytes of `kind` (one of KINDS), the same for the same seed."""
    return GENERATORS[kind](size, seed)

"""The dedup pass: read every block once, hash it on two cores, count it in the hash sample."""

from __future__ import annotations

import functools
import hashlib
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from advisor.estimates.engine.accounting import block_stored, zero_is_hole, zeros
from advisor.estimates.engine.dedup import HashSample
from advisor.estimates.engine.reader import CHUNK_BYTES, Chunk, Prefetcher, chunks
from advisor.estimates.engine.sources import Input, Layout

# Chunks hashed at once: hashlib releases the GIL on big buffers, so both cores hash while
# the reader thread waits on the disk.
HASHERS = 2
Tick = Callable[[float, str], None]  # (share of the pass done, message)
Hasher = Callable[[bytes | memoryview], bytes]  # given read-only views (siphash needs them)

# Any of these tells blocks apart; which is fastest depends on the CPU: sha256 with SHA-NI ran
# at 1.4 GB/s here against 0.6 for blake2b and md5, but a CPU without SHA-NI flips the order.
# siphash is Python's own hash of bytes (SipHash-1-3 under a per-process key): a keyed PRF, so
# its low bits pick a fair share of the hash space, and its 64 bits leave ~3e-6 odds of one
# collision among 10 million distinct blocks. It holds the GIL, yet on one core it ran at 1.8
# (4K blocks) to 3.8 GB/s (128K) here against 0.9-1.2 GB/s for md5 on two, and it leaves the
# second core to the kernel's reads.
HASHES: dict[str, Hasher] = {
    "siphash": lambda data: hash(data).to_bytes(8, "little", signed=True),
    "sha256": lambda data: hashlib.sha256(data).digest(),
    "blake2b": lambda data: hashlib.blake2b(data, digest_size=16).digest(),
    "sha1": lambda data: hashlib.sha1(data, usedforsecurity=False).digest(),
    "md5": lambda data: hashlib.md5(data, usedforsecurity=False).digest(),
}
# Only keyed or cryptographic hashes: the sample keeps a block by its hash's low bits, which must
# be as good as random whatever the data (a CRC is linear: blocks that differ in a pattern have CRCs
# that differ in a pattern, and a share of the hash space picked by them is not a fair sample).
TRIAL = 1 << 20  # bytes each candidate hashes (in 128 KiB blocks) to pick the fastest


@dataclass
class Hashed:
    """The dedup pass's outcome."""

    sample: HashSample
    offered: int = 0  # blocks read, zero blocks included
    read: int = 0  # bytes of the blocks read
    seconds: float = 0.0
    complete: bool = True
    hash: str = ""  # the hash function used


@dataclass(frozen=True)
class Pass:
    """What the pass needs for every block: sector size, compression, whether zeros are holes."""

    sector: int
    compression: str
    holes: bool
    hasher: Hasher
    zero_digests: dict[int, bytes] = field(default_factory=dict)

    def zero_digest(self, size: int) -> bytes:
        """The digest of an all-zero block of `size` bytes."""
        if size not in self.zero_digests:
            self.zero_digests[size] = self.hasher(zeros(size))
        return self.zero_digests[size]


@functools.cache
def fastest_hash() -> str:
    """The candidate hash that runs fastest on this CPU (measured once per process)."""
    trial = memoryview(bytes(range(256)) * (TRIAL // 256))
    timings = {}
    for name, hasher in HASHES.items():
        started = time.perf_counter()
        for at in range(0, TRIAL, 128 << 10):
            hasher(trial[at : at + (128 << 10)])
        timings[name] = time.perf_counter() - started
    return min(timings, key=timings.__getitem__)


def digests(chunk: Chunk, hasher: Hasher) -> list[bytes]:
    """The digest of each block of a chunk (run in a worker thread)."""
    view, size = memoryview(chunk.data), chunk.lsize
    return [hasher(view[at : at + size]) for at in range(0, len(view), size)]


def hash_blocks(
    inp: Input, found: Layout, compression: str, *, tick: Tick, deadline: float, cap: int
) -> Hashed:
    """Hash every block until done or past `deadline` (then complete is False)."""
    hashed = Hashed(HashSample(cap))
    hashed.hash = fastest_hash()
    holes = zero_is_hole(compression, inp.kind)
    setup = Pass(inp.sector_size, compression, holes, HASHES[hashed.hash])
    started = time.monotonic()
    with (
        Prefetcher(chunks(found, CHUNK_BYTES)) as reader,
        ThreadPoolExecutor(HASHERS, thread_name_prefix="advisor-hash") as pool,
    ):
        tick(0.0, "Hashing blocks for dedup")
        pending: deque[tuple[Chunk, Future[list[bytes]]]] = deque()
        for chunk in reader:
            pending.append((chunk, pool.submit(digests, chunk, setup.hasher)))
            if len(pending) < HASHERS:
                continue
            _count(hashed, setup, *pending.popleft())
            tick(hashed.read / max(1, found.logical), _message(hashed))
            if time.monotonic() > deadline:
                break
        else:
            while pending:
                _count(hashed, setup, *pending.popleft())
    hashed.complete = hashed.offered >= found.blocks
    hashed.seconds = time.monotonic() - started
    return hashed


def _message(hashed: Hashed) -> str:
    """Progress text of the pass."""
    return f"Hashing blocks for dedup: {hashed.read >> 20} MiB read"


def _count(hashed: Hashed, setup: Pass, chunk: Chunk, future: Future[list[bytes]]) -> None:
    """Count a hashed chunk's blocks in the sample (all-zero blocks are holes when asked)."""
    view, size = memoryview(chunk.data), chunk.lsize
    zero = setup.zero_digest(size)
    for at, digest in zip(range(0, len(view), size), future.result(), strict=True):
        hashed.offered += 1
        hashed.read += size
        if setup.holes and digest == zero:
            continue
        allocated = functools.partial(_asize, view[at : at + size], setup)
        hashed.sample.add(int.from_bytes(digest[:8], "little"), allocated)


def _asize(block: memoryview, setup: Pass) -> int:
    """Bytes a block allocates with dedup on (never embedded then): for new kept hashes only."""
    stored = block_stored(bytes(block), setup.compression, setup.sector, zero_is_hole=False,
                          embed=False)  # fmt: skip
    return stored.asize

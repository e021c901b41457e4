"""The size OpenZFS's own lz4 gives a block: its 2013 LZ4 (module/zfs/lz4.c), parse for parse.

Modern liblz4 hashes 5 bytes on 64-bit machines and skips differently: measured on real
OpenZFS 2.1 it was 5.5% off on executables and 6.7% on text. Only the size is computed
here (no output is written), in pure Python: slow (a few MB/s), so it measures the sampled
blocks only; speeds are still timed with the liblz4 binding.
"""

from __future__ import annotations

from storage.zfs.codecs import LZ4_HEADER

MINMATCH = 4
SKIPSTRENGTH = 6
LASTLITERALS = 5
MFLIMIT = 12  # COPYLENGTH + MINMATCH
MAX_DISTANCE = 65535
LIMIT_64K = (1 << 16) + MFLIMIT - 1  # LZ4_64KLIMIT: below it, the 64K variant (no distance)
RUN_MASK = ML_MASK = 15
PRIME = 2654435761


def lz4_size(data: bytes) -> int:
    """Bytes OpenZFS's lz4 writes for `data`, its 4-byte length header included."""
    return LZ4_HEADER + _Parser(data).size()


class _Parser:
    """LZ4_compressCtx / LZ4_compress64kCtx, counting output bytes instead of writing them."""

    def __init__(self, data: bytes) -> None:
        """A parser for one block, with the 64K variant's table below LIMIT_64K."""
        self.data = data
        small = len(data) < LIMIT_64K
        hash_log = 13 if small else 12  # HASHLOG64K = HASH_LOG + 1
        self.shift = 32 - hash_log
        self.table = [0] * (1 << hash_log)  # the context is zeroed: every slot points at 0
        self.far = 1 << 40 if small else MAX_DISTANCE  # the 64K variant checks no distance
        self.out = 0

    def hash(self, at: int) -> int:
        """LZ4_HASH_VALUE: Knuth's multiplicative hash of the 4 bytes at `at`."""
        word = int.from_bytes(self.data[at : at + 4], "little")
        return ((word * PRIME) & 0xFFFFFFFF) >> self.shift

    def same4(self, ref: int, at: int) -> bool:
        """A32(ref) == A32(ip)."""
        return self.data[ref : ref + 4] == self.data[at : at + 4]

    def size(self) -> int:
        """Output bytes of the whole block."""
        end = len(self.data)
        if end < MFLIMIT + 1:
            return self._last_literals(end)
        self.table[self.hash(0)] = 0
        anchor, at = 0, 1
        while True:
            found = self._find(at, anchor)
            if found is None:
                return self.out + self._last_literals(end - anchor)
            at, ref = found
            self.out += _run_bytes(at - anchor) + at - anchor
            at = self._matches(at, ref)
            if at > end - MFLIMIT:
                return self.out + self._last_literals(end - at)
            anchor, at = at, at + 1

    def _find(self, start: int, anchor: int) -> tuple[int, int] | None:
        """The next match (position, reference) caught up backwards, or None at the end."""
        attempts, forward = (1 << SKIPSTRENGTH) + 3, start
        forward_hash, mflimit = self.hash(start), len(self.data) - MFLIMIT
        while True:
            slot = forward_hash
            at, forward = forward, forward + (attempts >> SKIPSTRENGTH)
            attempts += 1
            if forward > mflimit:
                return None
            forward_hash = self.hash(forward)
            ref, self.table[slot] = self.table[slot], at
            if ref >= at - self.far and self.same4(ref, at):
                break
        while at > anchor and ref > 0 and self.data[at - 1] == self.data[ref - 1]:
            at, ref = at - 1, ref - 1
        return at, ref

    def _matches(self, at: int, ref: int) -> int:
        """Encode the match at `at` and any that follow at once; the position after them."""
        mflimit = len(self.data) - MFLIMIT
        while True:
            at, ref = at + MINMATCH, ref + MINMATCH
            length = _common(self.data, ref, at, len(self.data) - LASTLITERALS - at)
            at += length
            self.out += 2 + _match_bytes(length)  # offset, then the extra length bytes
            if at > mflimit:
                return at
            self.table[self.hash(at - 2)] = at - 2
            slot = self.hash(at)
            ref, self.table[slot] = self.table[slot], at
            if not (ref > at - (self.far + 1) and self.same4(ref, at)):
                return at
            self.out += 1  # a new token with no literals

    def _last_literals(self, run: int) -> int:
        """Bytes of the final literal run: its token, length bytes and the literals."""
        return _run_bytes(run) + run


def _run_bytes(length: int) -> int:
    """The token plus the bytes extending a literal length of 15 or more."""
    return 1 + ((length - RUN_MASK) // 255 + 1 if length >= RUN_MASK else 0)


def _match_bytes(length: int) -> int:
    """Bytes extending a match length (beyond MINMATCH) of 15 or more: 255s, then the rest."""
    if length < ML_MASK:
        return 0
    rest, count = length - ML_MASK, 1
    while rest > 509:
        rest, count = rest - 510, count + 2
    return count + 1 if rest > 254 else count


def _common(data: bytes, ref: int, at: int, limit: int) -> int:
    """How many bytes from `ref` and `at` are equal, at most `limit` (memcmp by halves)."""
    count, step = 0, 16
    while count < limit:
        size = min(step, limit - count)
        if data[ref + count : ref + count + size] == data[at + count : at + count + size]:
            count, step = count + size, step * 2
            continue
        low, high = 0, size  # equal for `low` bytes, not for `high`
        while high - low > 1:
            middle = (low + high) // 2
            if data[ref + count : ref + count + middle] == data[at + count : at + count + middle]:
                low = middle
            else:
                high = middle
        return count + low
    return max(limit, 0)

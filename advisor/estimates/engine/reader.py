"""The full pass's reading: big sequential chunks of whole blocks, read ahead in a thread."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType

from advisor.estimates.engine.sources import FileBlocks, Layout

CHUNK_BYTES = 1 << 20  # big reads: the pass must keep up with a plain sequential read
DEPTH = 4  # chunks read ahead (4 MiB): enough to overlap reading with hashing
_END = object()


@dataclass(frozen=True)
class Chunk:
    """`count` consecutive blocks of `lsize` bytes each, tails padded with zeros.

    Immutable bytes: the dedup pass hashes slices of it with Python's own hash, which only
    takes read-only buffers of hashable objects.
    """

    data: bytes
    lsize: int
    count: int


def chunks(found: Layout, chunk_bytes: int = CHUNK_BYTES) -> Iterator[Chunk]:
    """Every data block of the input, in order, in chunks of about `chunk_bytes`."""
    for file in found.files:
        if file.blocks:
            yield from _file_chunks(file, max(1, chunk_bytes // file.lsize))


def _file_chunks(file: FileBlocks, per_chunk: int) -> Iterator[Chunk]:
    """The data blocks of one file; a file that vanished since the listing yields nothing."""
    try:
        fd = os.open(file.path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return
    try:
        for first, end in file.ranges:
            for start in range(first, end, per_chunk):
                count = min(per_chunk, end - start)
                data = _read(fd, count * file.lsize, start * file.lsize)
                yield Chunk(data, file.lsize, count)
    finally:
        os.close(fd)


def _read(fd: int, length: int, offset: int) -> bytes:
    """`length` bytes from `offset`, zeros past the file's end (it may shrink while read)."""
    data = os.pread(fd, length, offset)
    while len(data) < length:  # a short read: go on, until the end of the file
        more = os.pread(fd, length - len(data), offset + len(data))
        if not more:
            return data + bytes(length - len(data))
        data += more
    return data


class Prefetcher:
    """Iterates a chunk source from a reader thread, DEPTH chunks ahead; close() stops it."""

    def __init__(self, source: Iterator[Chunk], depth: int = DEPTH) -> None:
        """Start the reader thread on `source`."""
        self._source = source
        self._queue: queue.Queue[object] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="advisor-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        """Reader thread: put chunks (then the end marker, or the error) on the queue."""
        try:
            for chunk in self._source:
                if not self._put(chunk):
                    return
            self._put(_END)
        except BaseException as error:  # handed to the consumer, which raises it
            self._put(error)
        finally:
            close = getattr(self._source, "close", None)
            if close:
                close()  # the generator's finally closes its open file

    def _put(self, item: object) -> bool:
        """Queue one item, giving up when the consumer stopped (False)."""
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator[Chunk]:
        """Chunks in order; an error in the reader is raised here."""
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            assert isinstance(item, Chunk)
            yield item

    def close(self) -> None:
        """Stop the reader thread and wait for it (its file is closed by then)."""
        self._stop.set()
        self._thread.join()

    def __enter__(self) -> Prefetcher:
        """Use as a context manager so the thread never outlives the pass."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the reader whatever happened."""
        self.close()

"""The sandbox's `zfs send` stream, written: a format of its own, the same bytes every time.

A stream is a run of JSON lines (keys sorted) and raw data:

    NASUI-SANDBOX-STREAM 1
    section ...                          one per snapshot carried, oldest first
    {"end":"stream","sections":N}        the trailer: a stream without it was cut

A section carries one snapshot's whole tree (the sandbox proves flows, not sizes):

    {"section":{...SectionHeader...}}
    {"entry":{...}} DATA                 per directory, file and symlink, paths sorted; a
                                         file's DATA is its data extents (holes stay holes)
    {"end":"section","digest":HEX}       blake2b-128 of the section's bytes before this line

Hard links arrive as separate files; fifos, sockets and devices are not carried.

Sending one snapshot twice gives the same bytes (copies never change), which is what lets
`zfs send -t` resume: a resumed stream is the magic line, {"resume":{"guid","offset"}}, the
section from the receiver's byte `offset` on, and the trailer. Sizes come from the entries
alone (stat and SEEK_DATA), so `zfs send -n -P` reads no data.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, BinaryIO

from storage.zfs.sandbox.copies import data_extents

MAGIC = b"NASUI-SANDBOX-STREAM 1\n"
DIGEST_SIZE = 16
CHUNK = 1 << 20


@dataclass(frozen=True)
class SectionHeader:
    """Which snapshot a section carries, and from which one (None: a full stream)."""

    dataset: str  # the sending dataset, pool/name
    snapshot: str  # short name
    guid: str
    from_guid: str | None
    from_name: str | None
    kind: str  # filesystem or volume
    created: int
    volsize: int | None = None
    volblocksize: int | None = None
    # A raw send (-w) of an encrypted dataset: its root's cipher, key format and key check, so
    # the copy is stored encrypted and opens with the same passphrase or key, not without.
    crypt: dict[str, str] | None = None

    @property
    def full_name(self) -> str:
        """pool/dataset@snapshot on the sending side."""
        return f"{self.dataset}@{self.snapshot}"


@dataclass(frozen=True)
class Extent:
    """`length` bytes of `path` from `start`: data read when the stream is written."""

    path: Path
    start: int
    length: int


Piece = bytes | Extent


def line(record: dict[str, Any]) -> bytes:
    """One record: compact JSON, keys sorted, ASCII only, so the bytes are always the same."""
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def end_line(digest: str) -> bytes:
    """A section's last line."""
    return line({"end": "section", "digest": digest})


END_SIZE = len(end_line("0" * DIGEST_SIZE * 2))


def trailer(sections: int) -> bytes:
    """The stream's last line."""
    return line({"end": "stream", "sections": sections})


def resume_line(guid: str, offset: int) -> bytes:
    """What opens a resumed stream after the magic: the section's snapshot and where it goes on."""
    return line({"resume": {"guid": guid, "offset": offset}})


# -- a section's pieces ------------------------------------------------------------------
def section_pieces(header: SectionHeader, copy: Path) -> Iterator[Piece]:
    """The section's header line, then the entries and data of the snapshot's copy."""
    yield line({"section": asdict(header)})
    for rel, path, info in _walk(copy, ""):
        yield from _entry(rel, path, info)


def _walk(root: Path, rel: str) -> Iterator[tuple[str, Path, os.stat_result]]:
    """Everything under `root` (itself first, as ""), each directory before its contents."""
    path = root / rel if rel else root
    info = path.lstat()
    yield rel, path, info
    if stat.S_ISDIR(info.st_mode):
        for name in sorted(os.listdir(path)):
            yield from _walk(root, f"{rel}/{name}" if rel else name)


def _entry(rel: str, path: Path, info: os.stat_result) -> Iterator[Piece]:
    """An entry's line and, for a file, its data extents; other kinds (fifos...) are left out."""
    meta = {
        "path": rel,
        "mode": stat.S_IMODE(info.st_mode),
        "mtime_ns": info.st_mtime_ns,
        "uid": info.st_uid,
        "gid": info.st_gid,
    }
    if stat.S_ISDIR(info.st_mode):
        yield line({"entry": {**meta, "kind": "dir"}})
    elif stat.S_ISLNK(info.st_mode):
        yield line({"entry": {**meta, "kind": "link", "target": os.readlink(path)}})
    elif stat.S_ISREG(info.st_mode):
        with open(path, "rb") as handle:
            extents = data_extents(handle.fileno())
        spans = [[start, end - start] for start, end in extents]
        yield line({"entry": {**meta, "kind": "file", "size": info.st_size, "extents": spans}})
        for start, length in spans:
            yield Extent(path, start, length)


def section_size(pieces: Iterable[Piece]) -> int:
    """The bytes of a section, its last line included, without reading any data."""
    return sum(len(p) if isinstance(p, bytes) else p.length for p in pieces) + END_SIZE


# -- writing -----------------------------------------------------------------------------
class Writer:
    """Writes to `out`, leaving out the first `skip` bytes (those a resumed receive has)."""

    def __init__(self, out: BinaryIO, skip: int = 0) -> None:
        self.out = out
        self.skip = skip
        self.position = 0
        self.written = 0

    def write(self, data: bytes) -> None:
        end = self.position + len(data)
        if end > self.skip:
            chunk = data[max(0, self.skip - self.position) :]
            self.out.write(chunk)
            self.written += len(chunk)
        self.position = end

    def section(self, pieces: Iterable[Piece]) -> None:
        """A section and its digest line (skipped bytes are read too: the digest covers them)."""
        digest = hashlib.blake2b(digest_size=DIGEST_SIZE)
        for piece in pieces:
            for chunk in _chunks(piece):
                digest.update(chunk)
                self.write(chunk)
        self.write(end_line(digest.hexdigest()))


def _chunks(piece: Piece) -> Iterator[bytes]:
    if isinstance(piece, bytes):
        yield piece
        return
    with open(piece.path, "rb") as handle:
        done = 0
        while done < piece.length:
            data = os.pread(handle.fileno(), min(CHUNK, piece.length - done), piece.start + done)
            if not data:
                raise OSError(f"{piece.path} ended before its data extent")
            yield data
            done += len(data)

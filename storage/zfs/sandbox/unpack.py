"""The sandbox's stream, read (streams.py writes it): records, digests, trees rebuilt on disk.

The reader takes its bytes from an optional replay (the part of a section an interrupted
receive kept) and then from the live stream; the live bytes of the section under way are
also copied to a spool file, so that a stream cut in the middle leaves exactly what arrived.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from storage.zfs.sandbox.streams import CHUNK, DIGEST_SIZE, MAGIC, SectionHeader

MAX_LINE = 1 << 20  # a record longer than this is not one of ours
Read = Callable[[BinaryIO, int], bytes]


class StreamCut(Exception):
    """The stream ended before a record or its data did."""


class BadStream(Exception):
    """Not a sandbox stream, or not the bytes it says (its digest)."""


class Reader:
    """Records and data from `replay` then `live`; live bytes are copied to `spool` if set."""

    def __init__(self, live: BinaryIO, replay: BinaryIO | None = None) -> None:
        self._sources: list[tuple[BinaryIO, bool]] = [(live, True)]
        if replay is not None:
            self._sources.insert(0, (replay, False))
        self.spool: BinaryIO | None = None
        self._digest = hashlib.blake2b(digest_size=DIGEST_SIZE)

    def begin_section(self, spool: BinaryIO | None) -> None:
        """What follows may open a section: hash it afresh, append its live bytes to `spool`."""
        self._digest = hashlib.blake2b(digest_size=DIGEST_SIZE)
        self.spool = spool

    def replay(self, handle: BinaryIO) -> None:
        """Read `handle` (bytes that arrived before, already spooled) before the live stream."""
        self._sources.insert(0, (handle, False))

    def magic(self) -> None:
        """The stream's first line; nothing at all is a cut, anything else not our stream."""
        first = self._line()
        if first != MAGIC:
            raise BadStream("invalid stream (bad magic number)")

    def record(self) -> tuple[dict[str, Any], str]:
        """The next record and the digest of the section's bytes before it."""
        before = self._digest.hexdigest()
        raw = self._line()
        try:
            found = json.loads(raw)
        except ValueError:
            raise BadStream("invalid backup stream") from None
        if not isinstance(found, dict):
            raise BadStream("invalid backup stream")
        return found, before

    def data(self, size: int) -> bytes:
        """Exactly `size` bytes (at most CHUNK), or StreamCut."""
        got = b""
        while len(got) < size:
            more = self._pull(lambda h, n: h.read(n), size - len(got))
            if not more:
                raise StreamCut()
            got += more
        return got

    def _line(self) -> bytes:
        got = b""
        while not got.endswith(b"\n"):
            if len(got) >= MAX_LINE:
                raise BadStream("invalid backup stream (record too long)")
            more = self._pull(lambda h, n: h.readline(n), MAX_LINE - len(got))
            if not more:
                raise StreamCut()
            got += more
        return got

    def _pull(self, read: Read, size: int) -> bytes:
        """One read from the first source that still has bytes; hashed, and spooled if live."""
        while self._sources:
            handle, live = self._sources[0]
            data = read(handle, size)
            if data:
                self._digest.update(data)
                if live and self.spool is not None:
                    self.spool.write(data)
                return data
            self._sources.pop(0)
        return b""


def section_header(record: dict[str, Any]) -> SectionHeader:
    """The header of a section record, BadStream if it is not one."""
    try:
        return SectionHeader(**record["section"])
    except (KeyError, TypeError):
        raise BadStream("invalid backup stream") from None


def unpack_section(reader: Reader, header: SectionHeader, target: Path) -> int:
    """Rebuild the section's tree (or zvol file) at `target`; the data bytes it held."""
    dirs: list[tuple[Path, dict[str, Any]]] = []
    total = 0
    while True:
        record, before = reader.record()
        if "end" in record:
            if record.get("end") != "section" or record.get("digest") != before:
                raise BadStream("checksum mismatch")
            for path, meta in reversed(dirs):
                _set_meta(path, meta)
            return total
        entry = record.get("entry")
        if not isinstance(entry, dict):
            raise BadStream("invalid backup stream")
        path = _place(target, str(entry.get("path", "")), header.kind, entry.get("kind"))
        total += _write_entry(reader, path, entry, dirs)


def _place(target: Path, rel: str, kind: str, entry_kind: object) -> Path:
    """Where an entry goes: never outside `target`; a zvol is one file at the top."""
    if not rel:
        wanted = "file" if kind == "volume" else "dir"
        if entry_kind != wanted:
            raise BadStream(f"invalid backup stream (a {kind} needs a top {wanted})")
        return target
    parts = rel.split("/")
    if kind == "volume" or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise BadStream(f"invalid backup stream (path {rel!r})")
    return target.joinpath(*parts)


def _write_entry(
    reader: Reader, path: Path, entry: dict[str, Any], dirs: list[tuple[Path, dict[str, Any]]]
) -> int:
    """Make one entry; directories get their metadata once their contents are in."""
    kind = entry.get("kind")
    if kind == "dir":
        path.mkdir(exist_ok=True)
        dirs.append((path, entry))
        return 0
    if kind == "link":
        os.symlink(str(entry["target"]), path)
        _set_meta(path, entry)
        return 0
    if kind != "file":
        raise BadStream(f"invalid backup stream (entry kind {kind!r})")
    total = _write_file(reader, path, int(entry["size"]), entry["extents"])
    _set_meta(path, entry)
    return total


def _write_file(reader: Reader, path: Path, size: int, extents: list[list[int]]) -> int:
    """A file of `size` bytes with data only where the extents say: holes stay holes."""
    total = 0
    with open(path, "wb") as out:
        out.truncate(size)
        for start, length in extents:
            if start < 0 or length < 0 or start + length > size:
                raise BadStream("invalid backup stream (extent outside its file)")
            out.seek(start)
            done = 0
            while done < length:
                done += out.write(reader.data(min(CHUNK, length - done)))
            total += length
    return total


def _set_meta(path: Path, entry: dict[str, Any]) -> None:
    """Mode, times and (as root) owners as the sender had them."""
    is_link = entry.get("kind") == "link"
    if os.geteuid() == 0:  # first: a chown clears setuid bits the mode may set
        with contextlib.suppress(OSError):
            os.lchown(path, int(entry["uid"]), int(entry["gid"]))
    if not is_link:
        os.chmod(path, int(entry["mode"]))
    mtime = int(entry["mtime_ns"])
    os.utime(path, ns=(mtime, mtime), follow_symlinks=not is_link)

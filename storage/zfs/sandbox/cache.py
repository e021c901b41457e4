"""Per-file block summaries kept between scans (sqlite3), so unchanged files cost nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    pool TEXT NOT NULL,          -- pool guid: survives export, import and rename
    path TEXT NOT NULL,          -- relative to the pool's directory
    dataset TEXT NOT NULL,       -- dataset name relative to the pool ("" = root)
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ino INTEGER NOT NULL,
    algo TEXT NOT NULL,          -- compression the blocks were measured with
    dedup INTEGER NOT NULL,      -- 1 when written to a dedup=on dataset
    nblocks INTEGER NOT NULL,
    lsize INTEGER NOT NULL,
    psize INTEGER NOT NULL,
    asize INTEGER NOT NULL,
    blocks BLOB NOT NULL,        -- blocks.pack(): lsize, psize, digest per block
    PRIMARY KEY (pool, path)
)
"""


@dataclass(frozen=True)
class FileRow:
    """What the last scan learnt about one file."""

    path: str
    dataset: str
    size: int
    mtime_ns: int
    ino: int
    algo: str
    dedup: bool
    nblocks: int
    lsize: int
    psize: int
    asize: int
    blocks: bytes

    @property
    def identity(self) -> tuple[int, int, int]:
        """(size, mtime_ns, inode): a file whose identity changed is read again."""
        return self.size, self.mtime_ns, self.ino


class BlockCache:
    """The sqlite3 file holding one FileRow per scanned file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with closing(self._connect()) as db, db:
            db.execute(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=60)
        db.execute("PRAGMA journal_mode=WAL")
        return db

    def rows(self, pool: str) -> dict[str, FileRow]:
        """Every cached file of a pool, by relative path."""
        with closing(self._connect()) as db:
            cursor = db.execute(
                "SELECT path, dataset, size, mtime_ns, ino, algo, dedup, nblocks, lsize, psize,"
                " asize, blocks FROM files WHERE pool = ?",
                (pool,),
            )
            return {row[0]: _row(row) for row in cursor}

    def iter_blocks(self, pool: str) -> Iterator[tuple[str, bytes]]:
        """(algo, packed blocks) of every cached file of a pool, for a dedup simulation."""
        with closing(self._connect()) as db:
            yield from db.execute("SELECT algo, blocks FROM files WHERE pool = ?", (pool,))

    def save(self, pool: str, changed: Iterable[FileRow], gone: Iterable[str]) -> None:
        """Store re-read files and forget deleted ones, in one transaction."""
        with closing(self._connect()) as db, db:
            db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [_values(pool, r) for r in changed],
            )
            db.executemany(
                "DELETE FROM files WHERE pool = ? AND path = ?", [(pool, p) for p in gone]
            )

    def forget_pool(self, pool: str) -> None:
        """Drop a destroyed pool's rows."""
        with closing(self._connect()) as db, db:
            db.execute("DELETE FROM files WHERE pool = ?", (pool,))


def _row(values: tuple[Any, ...]) -> FileRow:
    """A database row (without the pool column) -> FileRow."""
    path, dataset, size, mtime_ns, ino, algo, dedup, nblocks, lsize, psize, asize, blob = values
    return FileRow(
        path, dataset, size, mtime_ns, ino, algo, bool(dedup), nblocks, lsize, psize, asize, blob
    )


def _values(pool: str, r: FileRow) -> tuple[Any, ...]:
    """A FileRow -> the values of an INSERT, pool first."""
    return (
        pool,
        r.path,
        r.dataset,
        r.size,
        r.mtime_ns,
        r.ino,
        r.algo,
        int(r.dedup),
        r.nblocks,
        r.lsize,
        r.psize,
        r.asize,
        r.blocks,
    )

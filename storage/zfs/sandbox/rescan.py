"""The space scan: read only files changed since the last scan, then recompute the figures."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storage.zfs.sandbox import dedup
from storage.zfs.sandbox.blocks import file_blocks, pack, unpack
from storage.zfs.sandbox.cache import BlockCache, FileRow
from storage.zfs.sandbox.layout import Geometry
from storage.zfs.sandbox.tree import PoolTree

# progress(files done, files in total, current path)
Progress = Callable[[int, int, str], None]


@dataclass
class RescanResult:
    """What a rescan did: how many files it saw and how many it actually had to read."""

    pools: int = 0
    files_seen: int = 0
    files_read: int = 0
    bytes_read: int = 0
    seconds: float = 0.0
    read_paths: list[str] = field(default_factory=list)


@dataclass
class PoolFigures:
    """A pool's computed figures, ready to be stored in its state record."""

    usage: dict[str, dict[str, int]]  # per dataset: its own blocks' lsize, psize, asize
    allocated: int
    ddt: list[list[Any]]  # dedup.histogram() rows


def pool_files(tree: PoolTree) -> Iterator[tuple[str, Path]]:
    """(dataset, path) of every regular file of every dataset, zvol files included."""
    for rel in sorted(tree.datasets):
        path = tree.data_path(rel)
        if path.is_file():
            yield rel, path
        elif path.is_dir():
            for top, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    yield rel, Path(top) / name


def scan_pool(
    tree: PoolTree, cache: BlockCache, result: RescanResult, progress: Progress | None
) -> PoolFigures:
    """Re-read what changed in one pool, update the cache, and sum everything up."""
    cached = cache.rows(tree.guid)
    files = list(pool_files(tree))
    rows: dict[str, FileRow] = {}
    changed: list[FileRow] = []
    seen_inodes: set[tuple[int, int]] = set()
    for done, (rel, path) in enumerate(files, 1):
        if progress:
            progress(done, len(files), str(path))
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue  # deleted while we walked
        # Hard links share their blocks: count a file once, like ZFS does.
        if not stat.S_ISREG(info.st_mode) or (info.st_dev, info.st_ino) in seen_inodes:
            continue
        seen_inodes.add((info.st_dev, info.st_ino))
        key = str(path.relative_to(tree.dir))
        result.files_seen += 1
        old = cached.get(key)
        if (
            old
            and old.dataset == rel
            and old.identity == (info.st_size, info.st_mtime_ns, info.st_ino)
        ):
            rows[key] = old
            continue
        try:
            row = _read_file(tree, rel, path, key, info, result)
        except FileNotFoundError:
            continue  # deleted (or its dataset destroyed) while we walked
        rows[key] = row
        changed.append(row)
    cache.save(tree.guid, changed, [k for k in cached if k not in rows])
    return summarize(rows.values(), tree.geometry)


def _read_file(
    tree: PoolTree, rel: str, path: Path, key: str, info: os.stat_result, result: RescanResult
) -> FileRow:
    """Measure one file with the dataset's current settings (ZFS too keeps old blocks as is)."""
    policy = tree.policy(rel)
    blocks, read = file_blocks(path, policy)
    result.files_read += 1
    result.bytes_read += read
    result.read_paths.append(str(path))
    geometry = tree.geometry
    return FileRow(
        path=key,
        dataset=rel,
        size=info.st_size,
        mtime_ns=info.st_mtime_ns,
        ino=info.st_ino,
        algo=policy.algo,
        dedup=tree.dedup(rel),
        nblocks=len(blocks),
        lsize=sum(b.lsize for b in blocks),
        psize=sum(b.psize for b in blocks),
        asize=sum(geometry.asize(b.psize) for b in blocks),
        blocks=pack(blocks),
    )


def dedup_key(digest: bytes, algo: str, lsize: int, psize: int) -> str:
    """Blocks dedup when their stored bytes match: same data and, if compressed, same codec."""
    return digest.hex() + (algo if psize < lsize else "")


def summarize(rows: Any, geometry: Geometry) -> PoolFigures:
    """Per-dataset sums, the pool's allocation and its dedup table from the file rows."""
    usage: dict[str, dict[str, int]] = {}
    table: dict[str, dedup.Entry] = {}
    allocated = 0
    for row in rows:
        own = usage.setdefault(row.dataset, {"lsize": 0, "psize": 0, "asize": 0})
        own["lsize"] += row.lsize
        own["psize"] += row.psize
        own["asize"] += row.asize
        if not row.dedup:
            allocated += row.asize
            continue
        # A dataset's `used` still counts every reference; only the pool sees the saving.
        for block in unpack(row.blocks):
            asize = geometry.asize(block.psize)
            key = dedup_key(block.digest, row.algo, block.lsize, block.psize)
            dedup.add_block(table, key, block.lsize, block.psize, geometry.dsize(asize))
    allocated += sum(geometry.asize(e[2]) for e in table.values())
    return PoolFigures(usage=usage, allocated=allocated, ddt=dedup.histogram(table))


def simulate(cache: BlockCache, guid: str, geometry: Geometry) -> list[list[Any]]:
    """zdb -S: a dedup table over every block of the pool, from the cache (no file reads)."""
    table: dict[str, dedup.Entry] = {}
    for algo, blob in cache.iter_blocks(guid):
        for block in unpack(blob):
            key = dedup_key(block.digest, algo, block.lsize, block.psize)
            dsize = geometry.dsize(geometry.asize(block.psize))
            dedup.add_block(table, key, block.lsize, block.psize, dsize)
    return dedup.histogram(table)


def store(record: dict[str, Any], figures: PoolFigures, started: float) -> None:
    """Write the figures of a scan begun at Unix time `started` into a pool record.

    Datasets created since the scan began keep zeros.
    """
    for rel, data in record["datasets"].items():
        data["usage"] = figures.usage.get(rel, {"lsize": 0, "psize": 0, "asize": 0})
    record["scan"] = {"allocated": figures.allocated, "ddt": figures.ddt, "time": started}

"""Where the sandbox keeps things under its root directory."""

from __future__ import annotations

from pathlib import Path

DATA = "data"  # a file system's files (its mountpoint)
CHILDREN = "ds"  # child datasets' directories; apart from DATA so names never collide


def pool_dir(root: Path, name: str, guid: str, imported: bool) -> Path:
    """root/pools/NAME while imported; root/exported/GUID while exported (names may clash)."""
    return root / "pools" / name if imported else root / "exported" / guid


def node_dir(pool: Path, rel: str) -> Path:
    """A dataset's own directory: the pool's for the root, else pool/ds/a/ds/b for 'a/b'."""
    path = pool
    for part in rel.split("/") if rel else ():
        path = path / CHILDREN / part
    return path


def data_dir(pool: Path, rel: str) -> Path:
    """A file system's files: its mountpoint."""
    return node_dir(pool, rel) / DATA


def zvol_file(pool: Path, rel: str) -> Path:
    """A zvol's sparse backing file, servable by tgt's rdwr backing store."""
    return node_dir(pool, rel) / f"{rel.rsplit('/', 1)[-1]}.zvol"

"""A pool record of the state file as a dataset tree: lookups, inheritance, children."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from storage.zfs.base import PoolLayout
from storage.zfs.codecs import algorithm
from storage.zfs.sandbox import paths, props
from storage.zfs.sandbox.blocks import Policy
from storage.zfs.sandbox.layout import Geometry, layout_from_dict

Record = dict[str, Any]


class PoolTree:
    """Read helpers over one pool's record: {name, guid, layout, datasets: {rel: {...}}}."""

    def __init__(self, record: Record, root: Path) -> None:
        self.record = record
        self.name: str = record["name"]
        self.guid: str = record["guid"]
        self.datasets: dict[str, Record] = record["datasets"]
        self.dir = paths.pool_dir(root, self.name, self.guid, bool(record["imported"]))
        self._children: dict[str, list[str]] | None = None
        # (full name, rel) from a dataset up to the root: a function of the name alone, so it is
        # kept; the local properties are looked up afresh (writes change them in place).
        self._ancestry: dict[str, tuple[tuple[str, str], ...]] = {}

    @property
    def layout(self) -> PoolLayout:
        """The pool's vdev layout."""
        return layout_from_dict(self.record["layout"])

    @property
    def geometry(self) -> Geometry:
        """How its data vdevs allocate blocks."""
        return Geometry.of(self.layout)

    def full_name(self, rel: str) -> str:
        """'a/b' -> 'tank/a/b'."""
        return f"{self.name}/{rel}" if rel else self.name

    def kind(self, rel: str) -> str:
        """filesystem or volume."""
        return str(self.datasets[rel]["type"])

    def parent(self, rel: str) -> str | None:
        """The parent's relative name, None for the root."""
        return rel.rpartition("/")[0] if rel else None

    def children(self, rel: str) -> list[str]:
        """Direct children, sorted."""
        if self._children is None:
            index: dict[str, list[str]] = {}
            for name in sorted(self.datasets):
                parent = self.parent(name)
                if parent is not None:
                    index.setdefault(parent, []).append(name)
            self._children = index
        return self._children.get(rel, [])

    def descendants(self, rel: str) -> list[str]:
        """Every dataset under rel (not rel itself)."""
        prefix = f"{rel}/" if rel else ""
        return sorted(n for n in self.datasets if n != rel and n.startswith(prefix))

    def chain(self, rel: str) -> list[tuple[str, dict[str, str]]]:
        """(full name, local properties) from the dataset up to the pool's root."""
        ancestry = self._ancestry.get(rel)
        if ancestry is None:
            up: list[tuple[str, str]] = []
            current: str | None = rel
            while current is not None:
                up.append((self.full_name(current), current))
                current = self.parent(current)
            ancestry = self._ancestry[rel] = tuple(up)
        return [(name, self.datasets[r]["props"]) for name, r in ancestry]

    def resolve(self, rel: str, prop: str) -> tuple[str, str] | None:
        """(value, source) of a property, inherited like ZFS."""
        return props.resolve(prop, self.chain(rel), self.kind(rel))

    def value(self, rel: str, prop: str) -> str:
        """The effective value of a property that always has one."""
        found = self.resolve(rel, prop)
        if found is None:
            raise KeyError(prop)
        return found[0]

    def int_value(self, rel: str, prop: str) -> int:
        """An effective numeric property (sizes)."""
        return int(self.value(rel, prop))

    def policy(self, rel: str) -> Policy:
        """How new writes to this dataset are cut and compressed."""
        is_volume = self.kind(rel) == props.VOLUME
        size_prop = "volblocksize" if is_volume else "recordsize"
        return Policy(
            block_size=self.int_value(rel, size_prop),
            algo=algorithm(self.value(rel, "compression")),
            is_volume=is_volume,
        )

    def dedup(self, rel: str) -> bool:
        """True when writes to this dataset go through the dedup table."""
        return self.value(rel, "dedup") != "off"

    def data_path(self, rel: str) -> Path:
        """A file system's directory or a zvol's file."""
        if self.kind(rel) == props.VOLUME:
            return paths.zvol_file(self.dir, rel)
        return paths.data_dir(self.dir, rel)

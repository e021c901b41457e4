"""Pool and Dataset figures from the last scan plus the current properties (no file access)."""

from __future__ import annotations

from dataclasses import dataclass

from storage.zfs.base import COMMENT_PROPERTY, Dataset, Pool
from storage.zfs.sandbox import crypt, dedup, health, layout, props
from storage.zfs.sandbox.tree import PoolTree


@dataclass(frozen=True)
class Space:
    """The space properties of one dataset, in bytes as `zfs get -p` gives them."""

    used: int
    available: int
    referenced: int
    logicalused: int
    logicalreferenced: int
    usedbydataset: int
    usedbychildren: int
    usedbyrefreservation: int
    compressed: int  # psize of the dataset and its children, for compressratio
    refcompressed: int
    usedbysnapshots: int = 0  # the sandbox has no snapshots

    @property
    def compressratio(self) -> float:
        """Logical / physical of the dataset and its children, 1.00 when empty."""
        return _ratio(self.logicalused, self.compressed)

    @property
    def refcompressratio(self) -> float:
        """Logical / physical of the dataset's own data."""
        return _ratio(self.logicalreferenced, self.refcompressed)


def _ratio(logical: int, physical: int) -> float:
    return round(logical / physical, 2) if physical else 1.0


def pool_size(tree: PoolTree) -> int:
    """`zpool list` SIZE of the pool."""
    return layout.pool_size(tree.layout, tree.record["disk_sizes"])


def pool_allocated(tree: PoolTree) -> int:
    """ALLOC from the last scan."""
    return int(tree.record.get("scan", {}).get("allocated", 0))


def read_at(tree: PoolTree) -> float:
    """When the pool's figures were read: its last scan began, or (never scanned) it was made."""
    return float(tree.record.get("scan", {}).get("time") or tree.record.get("created", 0))


def pool(tree: PoolTree) -> Pool:
    """The pool as `zpool list` would show it."""
    size = pool_size(tree)
    allocated = min(pool_allocated(tree), size)
    return Pool(
        name=tree.name,
        size=size,
        allocated=allocated,
        free=size - allocated,
        fragmentation=None,  # the sandbox has no metaslabs to fragment
        capacity=allocated * 100 // size if size else 0,
        dedupratio=dedup.dedup_ratio(tree.record.get("scan", {}).get("ddt", [])),
        health=health.pool_state(tree.record),
        ashift=layout.ASHIFT,  # the only one modelled: create_pool refuses others
        guid=tree.guid,
    )


class SpaceCalculator:
    """Computes used/available for every dataset of a pool once, top-down and bottom-up.

    The accounting is OpenZFS's (dsl_dir.c): used = usedbydataset + usedbychildren
    + usedbyrefreservation; a child's unused `reservation` is charged to its parent's
    usedbychildren, not to the child's own used.
    """

    def __init__(self, tree: PoolTree) -> None:
        self.tree = tree
        self._space: dict[str, Space] = {}
        self._used_only: dict[str, tuple[int, int, int, int]] = {}
        self._dir_space: dict[str, int] = {}
        self._geometry = tree.geometry  # built from the layout record: once per calculator
        dspace = layout.pool_dspace(tree.layout, tree.record["disk_sizes"])
        self._root_limit = dspace - layout.slop(dspace)

    def _own(self, rel: str) -> tuple[int, int, int]:
        """(referenced, lsize, psize) of a dataset's own blocks."""
        usage = self.tree.datasets[rel].get("usage", {})
        asize = int(usage.get("asize", 0))
        return self._geometry.dsize(asize), usage.get("lsize", 0), usage.get("psize", 0)

    def _unused_refreservation(self, rel: str, referenced: int) -> int:
        """usedbyrefreservation: the part of refreservation no data fills yet."""
        return max(0, self.tree.int_value(rel, "refreservation") - referenced)

    def _charged(self, rel: str) -> int:
        """What a dataset costs its parent: its used, or its reservation when that is more."""
        return max(self._bottom_up(rel)[0], self.tree.int_value(rel, "reservation"))

    def _bottom_up(self, rel: str) -> tuple[int, int, int, int]:
        """(used, usedbychildren, logicalused, compressed) including children."""
        if rel in self._used_only:
            return self._used_only[rel]
        referenced, lsize, psize = self._own(rel)
        children = self.tree.children(rel)
        by_children = sum(self._charged(c) for c in children)
        used = referenced + by_children + self._unused_refreservation(rel, referenced)
        logical = lsize + sum(self._bottom_up(c)[2] for c in children)
        compressed = psize + sum(self._bottom_up(c)[3] for c in children)
        self._used_only[rel] = (used, by_children, logical, compressed)
        return self._used_only[rel]

    def space(self, rel: str) -> Space:
        """The dataset's space properties."""
        if rel in self._space:
            return self._space[rel]
        used, by_children, logicalused, compressed = self._bottom_up(rel)
        referenced, lsize, psize = self._own(rel)
        by_refres = self._unused_refreservation(rel, referenced)
        figures = Space(
            used=used,
            available=self._available(rel, referenced, by_refres),
            referenced=referenced,
            logicalused=logicalused,
            logicalreferenced=lsize,
            usedbydataset=referenced,
            usedbychildren=by_children,
            usedbyrefreservation=by_refres,
            compressed=compressed,
            refcompressed=psize,
        )
        self._space[rel] = figures
        return figures

    def _dir_available(self, rel: str) -> int:
        """What the dataset and its children can still take (dsl_dir_space_available)."""
        if rel in self._dir_space:
            return self._dir_space[rel]
        used = self._bottom_up(rel)[0]
        parent = self.tree.parent(rel)
        if parent is None:
            available = self._root_limit - used
        else:
            # What the parent can still give, plus this dataset's reservation not yet used.
            reservation = self.tree.int_value(rel, "reservation")
            available = self._dir_available(parent) + max(0, reservation - used)
        quota = self.tree.int_value(rel, "quota") if rel_is_fs(self.tree, rel) else 0
        if quota:
            available = min(available, quota - used)
        self._dir_space[rel] = max(0, available)
        return self._dir_space[rel]

    def _available(self, rel: str, referenced: int, by_refres: int) -> int:
        """The dataset's own available: its unused refreservation is its to fill (refquota)."""
        available = self._dir_available(rel) + by_refres
        refquota = self.tree.int_value(rel, "refquota")
        if refquota:
            available = min(available, refquota - referenced)
        return max(0, available)


def rel_is_fs(tree: PoolTree, rel: str) -> bool:
    """True for a file system."""
    return tree.kind(rel) == props.FILESYSTEM


def _size_or_none(tree: PoolTree, rel: str, prop: str) -> int | None:
    found = tree.resolve(rel, prop)
    return int(found[0]) or None if found else None


def dataset(tree: PoolTree, calc: SpaceCalculator, rel: str) -> Dataset:
    """One dataset as `zfs list` would show it."""
    space = calc.space(rel)
    is_fs = rel_is_fs(tree, rel)
    comment = tree.resolve(rel, COMMENT_PROPERTY)
    return Dataset(
        name=tree.full_name(rel),
        type=tree.kind(rel),
        used=space.used,
        available=space.available,
        referenced=space.referenced,
        logicalused=space.logicalused,
        compressratio=space.compressratio,
        compression=tree.value(rel, "compression"),
        dedup=tree.value(rel, "dedup"),
        logicalreferenced=space.logicalreferenced,
        usedbydataset=space.usedbydataset,
        usedbychildren=space.usedbychildren,
        usedbysnapshots=space.usedbysnapshots,
        usedbyrefreservation=space.usedbyrefreservation,
        figures_read_at=read_at(tree),
        recordsize=tree.int_value(rel, "recordsize") if is_fs else None,
        volblocksize=None if is_fs else tree.int_value(rel, "volblocksize"),
        volsize=None if is_fs else tree.int_value(rel, "volsize"),
        quota=_size_or_none(tree, rel, "quota"),
        refquota=_size_or_none(tree, rel, "refquota"),
        reservation=_size_or_none(tree, rel, "reservation"),
        refreservation=_size_or_none(tree, rel, "refreservation"),
        atime=tree.value(rel, "atime") == "on" if is_fs else None,
        mountpoint=str(tree.data_path(rel)) if is_fs else None,
        readonly=tree.value(rel, "readonly") == "on",
        sync=tree.value(rel, "sync"),
        comment=comment[0] if comment else "",
        **_encryption(tree, rel),
    )


def _encryption(tree: PoolTree, rel: str) -> dict[str, str]:
    """The Dataset's encryption fields, as `zfs list` shows them."""
    root = crypt.root_of(tree, rel)
    if root is None:
        return {}
    own, keys = tree.datasets[rel]["crypt"], tree.datasets[root]["crypt"]
    return {
        "encryption": own["cipher"],
        "encryption_root": tree.full_name(root),
        "key_status": "available" if keys.get("loaded") else "unavailable",
        "key_format": keys["format"],
        "key_location": keys["location"] if root == rel else "",
    }

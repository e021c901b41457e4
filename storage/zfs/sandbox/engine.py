"""SandboxZfsEngine: pools on sparse files, for machines without OpenZFS (pool operations)."""

from __future__ import annotations

import contextlib
import secrets
import shutil
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from nasui.lib.locks import file_lock
from storage.zfs.base import (
    ArcStats,
    DedupSimulation,
    DedupTable,
    ImportablePool,
    Pool,
    PoolLayout,
    PoolStatus,
    ScrubStatus,
    Version,
)
from storage.zfs.errors import (
    DeviceInUse,
    InvalidProperty,
    PoolBusy,
    PoolExists,
    PoolNotFound,
    ZfsError,
    ZfsUnavailable,
)
from storage.zfs.names import check_pool_name
from storage.zfs.sandbox import busy, dedup, figures, health, props, scrub
from storage.zfs.sandbox import layout as geo
from storage.zfs.sandbox.cache import BlockCache
from storage.zfs.sandbox.datasets import DatasetOps
from storage.zfs.sandbox.disk_ops import DiskOps
from storage.zfs.sandbox.disks import DiskShelf, SandboxDisk
from storage.zfs.sandbox.keys import KeyOps
from storage.zfs.sandbox.receiving import ReceiveOps
from storage.zfs.sandbox.replica import ReplicaReads
from storage.zfs.sandbox.rescan import Progress, RescanResult, scan_pool, simulate, store
from storage.zfs.sandbox.sending import SendOps
from storage.zfs.sandbox.snapshots import SnapshotOps
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.tree import PoolTree
from storage.zfs.stats import BlockDevice

GIB = 1024**3
SANDBOX_VERSION = "sandbox-1"
# The panel's defaults for a new pool (as the cli engine applies them): lz4 and no atime writes.
ROOT_FS_DEFAULTS = {"compression": "lz4", "atime": "off"}
_IMPORT_ACTION = "The pool can be imported using its name or numeric identifier."


class SandboxZfsEngine(DatasetOps, SnapshotOps, DiskOps, ReplicaReads, SendOps, ReceiveOps, KeyOps):
    """ZfsEngine over files under `root`: disks are sparse images, datasets are directories."""

    # Files are written as they come; their compression is only computed by the next rescan,
    # so a write takes as long whatever the dataset's compression.
    compresses_on_write = False

    def __init__(
        self,
        root: Path | str,
        *,
        disk_count: int = 6,
        disk_size: int = 2 * GIB,
        clock: Callable[[], float] = time.time,
        scrub_rate: float = scrub.SCRUB_RATE,
    ) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.shelf = DiskShelf(self.root, disk_count, disk_size)
        self._state = StateStore(self.root)
        self._cache_path = self.root / "blocks.sqlite3"
        self._clock = clock
        self._scrub_rate = scrub_rate

    # -- lookups -------------------------------------------------------------------------
    def _tree(self, record: dict[str, Any]) -> PoolTree:
        return PoolTree(record, self.root)

    def _imported(self, state: State) -> list[PoolTree]:
        trees = [self._tree(r) for r in state["pools"].values() if r["imported"]]
        return sorted(trees, key=lambda t: t.name)

    def _pool(self, state: State, name: str) -> PoolTree:
        """An imported pool by name, PoolNotFound otherwise."""
        check_pool_name(name)
        for tree in self._imported(state):
            if tree.name == name:
                return tree
        raise PoolNotFound(f"cannot open '{name}': no such pool")

    @property
    def cache(self) -> BlockCache:
        """The per-file block cache of the rescan."""
        return BlockCache(self._cache_path)

    # -- versions, counters, disks -------------------------------------------------------
    def version(self) -> Version:
        """The sandbox's own version: it is not OpenZFS."""
        return Version(userland=SANDBOX_VERSION, kernel=SANDBOX_VERSION)

    def arcstats(self) -> ArcStats:
        """The sandbox has no ARC: say so rather than invent counters."""
        raise ZfsUnavailable("the sandbox engine has no ARC: arcstats are not available")

    def disk_usage(self) -> list[SandboxDisk]:
        """Every sandbox disk with the pool (imported or exported) that holds it."""
        owners: dict[str, tuple[str, bool]] = {}
        for record in self._state.read()["pools"].values():
            for disk in health.members(health.settle(record, self._clock())):
                owners[disk] = (record["name"], bool(record["imported"]))
        return self.shelf.disks(owners)

    def list_disks(self) -> list[BlockDevice]:
        """The disks as lsblk would show them (fstype zfs_member when a pool holds them)."""
        return [disk.device for disk in self.disk_usage()]

    # -- pools ---------------------------------------------------------------------------
    def list_pools(self) -> list[Pool]:
        """All imported pools, with the allocation of the last rescan."""
        return [figures.pool(self._settled(t)) for t in self._imported(self._state.read())]

    def get_pool(self, name: str) -> Pool:
        """One imported pool."""
        return figures.pool(self._settled(self._pool(self._state.read(), name)))

    def _settled(self, tree: PoolTree) -> PoolTree:
        """The pool as it is now: a resilver that has run its course has ended."""
        return self._tree(health.settle(tree.record, self._clock()))

    def pool_status(self, name: str) -> PoolStatus:
        """Health, vdev tree (offline disks, resilvers) and scan state, like `zpool status`."""
        tree = self._pool(self._state.read(), name)
        record = health.settle(tree.record, self._clock())
        return health.pool_status(
            tree.name, record, scrub.status(record.get("scrub"), self._clock())
        )

    def create_pool(
        self,
        name: str,
        layout: PoolLayout,
        *,
        force: bool = False,
        pool_properties: Mapping[str, str] | None = None,
        fs_properties: Mapping[str, str] | None = None,
        mountpoint: str | None = None,
    ) -> None:
        """Create a pool (ashift=12, root dataset lz4 and atime=off unless overridden).

        `mountpoint` is ignored: a sandbox file system lives in its data directory.
        """
        check_pool_name(name)
        layout.validate()
        disks = [self.shelf.resolve(d) for d in layout.disks()]
        layout = _renamed(layout, dict(zip(layout.disks(), disks, strict=True)))
        pool_props = _pool_properties(pool_properties or {})
        root_props = {
            k: props.normalize(k, v, props.FILESYSTEM)
            for k, v in {**ROOT_FS_DEFAULTS, **(fs_properties or {})}.items()
        }
        with self._state.transaction() as state:
            self._check_new_pool(state, name, disks, force)
            record = {
                "name": name,
                "guid": str(secrets.randbits(63) | 1 << 62),
                "imported": True,
                "created": self._clock(),
                "layout": geo.layout_to_dict(layout),
                "disk_sizes": {d: self.shelf.size(d) for d in disks},
                "properties": pool_props,
                "datasets": {"": _new_dataset(props.FILESYSTEM, root_props, self._clock())},
            }
            tree = self._tree(record)
            shutil.rmtree(tree.dir, ignore_errors=True)  # leftovers of a crash, never a pool
            tree.data_path("").mkdir(parents=True)
            state["pools"][record["guid"]] = record

    def _check_new_pool(self, state: State, name: str, disks: list[str], force: bool) -> None:
        if any(t.name == name for t in self._imported(state)):
            raise PoolExists(f"cannot create '{name}': pool already exists")
        for guid, record in list(state["pools"].items()):
            taken = set(disks) & set(health.members(health.settle(record, self._clock())))
            if not taken:
                continue
            disk = sorted(taken)[0]
            if record["imported"]:
                raise DeviceInUse(f"{disk} is part of active pool '{record['name']}'")
            if not force:
                raise DeviceInUse(
                    f"{disk} is part of exported pool '{record['name']}' (use force to reuse it)"
                )
            # Forcing a disk away from an exported pool leaves that pool unimportable.
            self._drop_pool(state, guid)

    def _drop_pool(self, state: State, guid: str) -> None:
        tree = self._tree(state["pools"].pop(guid))
        shutil.rmtree(tree.dir, ignore_errors=True)
        self.cache.forget_pool(guid)

    def _check_not_busy(self, tree: PoolTree, verb: str) -> None:
        holders = busy.open_files_under(tree.dir)
        if holders:
            raise PoolBusy(f"cannot {verb} '{tree.name}': pool is busy ({busy.describe(holders)})")

    def destroy_pool(self, name: str, *, force: bool = False) -> None:
        """Destroy a pool and every file on it."""
        with self._state.transaction() as state:
            tree = self._pool(state, name)
            if not force:
                self._check_not_busy(tree, "destroy")
            self._drop_pool(state, tree.guid)

    def export_pool(self, name: str, *, force: bool = False) -> None:
        """Hide a pool; its disks keep it and importable_pools() lists it."""
        with self._state.transaction() as state:
            tree = self._pool(state, name)
            if not force:
                self._check_not_busy(tree, "export")
            record = tree.record
            record["imported"] = False
            record["scrub"] = scrub.settle(record.get("scrub") or {}, self._clock()) or None
            target = self._tree(record).dir
            target.parent.mkdir(parents=True, exist_ok=True)
            tree.dir.rename(target)

    def importable_pools(self, search_dirs: Sequence[str] = ()) -> list[ImportablePool]:
        """Exported pools (search_dirs is accepted for compatibility and ignored)."""
        exported = [r for r in self._state.read()["pools"].values() if not r["imported"]]
        return [
            ImportablePool(
                name=r["name"],
                guid=r["guid"],
                state="ONLINE",
                action=_IMPORT_ACTION,
                vdevs=(geo.root_vdev(r["name"], geo.layout_from_dict(r["layout"])),),
            )
            for r in sorted(exported, key=lambda r: (r["name"], r["guid"]))
        ]

    def import_pool(
        self,
        name_or_guid: str,
        *,
        new_name: str | None = None,
        force: bool = False,
        search_dirs: Sequence[str] = (),
    ) -> None:
        """Import an exported pool by name or guid, optionally under a new name."""
        if new_name:
            check_pool_name(new_name)
        with self._state.transaction() as state:
            record = _find_exported(state, name_or_guid)
            name = new_name or record["name"]
            if any(t.name == name for t in self._imported(state)):
                raise PoolExists(
                    f"cannot import '{name_or_guid}': a pool with that name already exists"
                )
            source = self._tree(record).dir
            record["name"], record["imported"] = name, True
            target = self._tree(record).dir
            if target.exists():
                raise ZfsError(f"cannot import '{name_or_guid}': {target} is in the way")
            target.parent.mkdir(parents=True, exist_ok=True)
            source.rename(target)

    # -- scrub ---------------------------------------------------------------------------
    def scrub_start(self, pool: str) -> None:
        """Start a scrub that runs for a time proportional to the allocated bytes."""
        with self._state.transaction() as state:
            tree = self._pool(state, pool)
            now = self._clock()
            current = scrub.settle(tree.record.get("scrub") or {}, now)
            if current.get("state") == "scanning":
                doing = "resilvering" if current.get("function") == "resilver" else "scrubbing"
                raise PoolBusy(f"cannot scrub {pool}: currently {doing}")
            total = figures.pool_allocated(tree)
            tree.record["scrub"] = scrub.start(total, now, self._scrub_rate)

    def scrub_stop(self, pool: str) -> bool:
        """Cancel the running scrub; False when none was running (as the cli engine does)."""
        with self._state.transaction() as state:
            tree = self._pool(state, pool)
            now = self._clock()
            current = scrub.settle(tree.record.get("scrub") or {}, now)
            if current.get("state") != "scanning" or current.get("function") == "resilver":
                return False  # a resilver cannot be canceled
            tree.record["scrub"] = {**current, "state": "canceled", "stopped": now}
        return True

    def scrub_status(self, pool: str) -> ScrubStatus:
        """The current or last scrub."""
        tree = self._pool(self._state.read(), pool)
        return scrub.status(tree.record.get("scrub"), self._clock())

    # -- space scan and dedup ------------------------------------------------------------
    @contextlib.contextmanager
    def _rescan_lock(self) -> Iterator[None]:
        """One rescan at a time across processes (they would read the same files twice)."""
        with file_lock(self.root / "rescan.lock"):
            yield

    def rescan(self, pool: str | None = None, progress: Progress | None = None) -> RescanResult:
        """Re-read files changed since the last scan and recompute every space figure."""
        started = time.monotonic()
        result = RescanResult()
        with self._rescan_lock():
            # The figures count at least every write made before this moment: their read time.
            read_at = self._clock()
            snapshot = self._state.read()
            trees = [self._pool(snapshot, pool)] if pool else self._imported(snapshot)
            cache = self.cache
            scanned = {tree.guid: scan_pool(tree, cache, result, progress) for tree in trees}
            with self._state.transaction() as state:
                for guid, pool_figures in scanned.items():
                    if guid in state["pools"]:
                        store(state["pools"][guid], pool_figures, read_at)
        result.pools = len(scanned)
        result.seconds = time.monotonic() - started
        return result

    def settle(self, pool: str | None = None) -> None:
        """Rescan the files written since the last scan: the sandbox's figures lag until then."""
        self.rescan(pool)

    def pool_iostat(self, interval: int) -> str | None:
        """None: sandbox pools are plain files, with no I/O counters of their own."""
        return None

    def dedup_table(self, pool: str) -> DedupTable:
        """DDT summary and histogram (as `zpool status -D`) from the last rescan."""
        tree = self._pool(self._state.read(), pool)
        return dedup.table(tree.record.get("scan", {}).get("ddt", []), with_classes=False)

    def dedup_table_zdb(self, pool: str) -> DedupTable:
        """DDT per class and histogram (as `zdb -DD`) from the last rescan."""
        tree = self._pool(self._state.read(), pool)
        return dedup.table(tree.record.get("scan", {}).get("ddt", []), with_classes=True)

    def simulate_dedup(self, pool: str) -> DedupSimulation:
        """`zdb -S`: dedup over every block of the pool, from the rescan's block cache."""
        tree = self._pool(self._state.read(), pool)
        return dedup.simulation(simulate(self.cache, tree.guid, tree.geometry))


def _new_dataset(kind: str, local: dict[str, str], now: float) -> dict[str, Any]:
    return {"type": kind, "props": local, "created": now, "usage": {}}


def _renamed(pool_layout: PoolLayout, names: Mapping[str, str]) -> PoolLayout:
    """The layout with disks given as paths replaced by their short names."""
    data = geo.layout_to_dict(pool_layout)
    for key in ("cache", "log", "spares"):
        data[key] = [names[d] for d in data[key]]
    data["groups"] = [[names[d] for d in group] for group in data["groups"]]
    return geo.layout_from_dict(data)


def _pool_properties(given: Mapping[str, str]) -> dict[str, str]:
    """Pool properties; only ashift=12 is modelled, so another ashift is refused."""
    merged = {"ashift": "12", **given}
    if merged["ashift"] != str(geo.ASHIFT):
        raise InvalidProperty(f"the sandbox engine models ashift=12 only, not {merged['ashift']}")
    return dict(merged)


def _find_exported(state: State, name_or_guid: str) -> dict[str, Any]:
    exported = [r for r in state["pools"].values() if not r["imported"]]
    by_guid = [r for r in exported if r["guid"] == name_or_guid]
    matches = by_guid or [r for r in exported if r["name"] == name_or_guid]
    if not matches:
        raise PoolNotFound(f"cannot import '{name_or_guid}': no such pool available")
    if len(matches) > 1:
        raise ZfsError(
            f"cannot import '{name_or_guid}': more than one matching pool; import by guid instead"
        )
    found: dict[str, Any] = matches[0]
    return found

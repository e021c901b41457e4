"""The `cli` engine: OpenZFS 2.x through zpool/zfs/zdb with parseable output."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from storage.zfs import disks, parse
from storage.zfs.argv import property_args
from storage.zfs.base import (
    ArcStats,
    BlockDevice,
    DedupSimulation,
    DedupTable,
    ImportablePool,
    Pool,
    PoolLayout,
    PoolStatus,
    ScrubStatus,
    Version,
)
from storage.zfs.cli.datasets import DatasetCommands
from storage.zfs.cli.disks import DiskCommands
from storage.zfs.cli.keys import KeyCommands
from storage.zfs.cli.snapshots import SnapshotCommands
from storage.zfs.errors import (
    InvalidProperty,
    PoolNotFound,
    ZfsError,
    classify,
)
from storage.zfs.names import check_dataset_name, check_pool_name
from storage.zfs.runner import CommandResult, Runner, subprocess_runner

# The panel's defaults for a new pool (TrueNAS's): 4K sectors, lz4, no access-time writes.
POOL_DEFAULTS = {"ashift": "12"}
ROOT_FS_DEFAULTS = {"compression": "lz4", "atime": "off"}
ARCSTATS_PATH = "/proc/spl/kstat/zfs/arcstats"

_GUID = re.compile(r"\d{1,20}")


class CliZfsEngine(DatasetCommands, SnapshotCommands, DiskCommands, KeyCommands):
    """ZfsEngine over the OpenZFS command-line tools."""

    compresses_on_write = True  # OpenZFS compresses each record as it writes it

    def __init__(
        self,
        runner: Runner = subprocess_runner,
        *,
        timeout: float = 120.0,
        long_timeout: float = 3600.0,
        read_text: Callable[[str], str] | None = None,
        arcstats_path: str = ARCSTATS_PATH,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._runner = runner
        self._timeout = timeout
        self._long_timeout = long_timeout  # zdb walks every block: it can take a while
        self._read_text = read_text or (lambda path: Path(path).read_text())
        self._arcstats_path = arcstats_path
        self._version: Version | None = None
        self._clock = clock
        self._sleep = sleep

    # -- plumbing --------------------------------------------------------------------------
    def run(
        self, argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None
    ) -> CommandResult:
        """Run a command; a non-zero exit raises the classified ZfsError."""
        result = self._runner(list(argv), timeout=timeout or self._timeout, stdin=stdin)
        if result.returncode != 0:
            raise classify(result.argv or tuple(argv), result.returncode, result.stderr)
        return result

    def _out(self, *argv: str, timeout: float | None = None) -> str:
        return self.run(argv, timeout=timeout).stdout

    # -- versions and counters -------------------------------------------------------------
    def version(self) -> Version:
        """OpenZFS userland and kernel versions (`zfs version`), cached."""
        if self._version is None:
            self._version = parse.parse_version(self._out("zfs", "version"))
        return self._version

    def arcstats(self) -> ArcStats:
        """Current ARC counters from the kstat file."""
        return parse.parse_arcstats(self._read_text(self._arcstats_path))

    def pool_iostat(self, interval: int) -> str | None:
        """One `zpool iostat` report covering the next `interval` seconds (-y: not since boot)."""
        return self._out("zpool", "iostat", "-H", "-p", "-y", str(interval), "1")

    def settle(self, pool: str | None = None) -> None:
        """Flush buffered writes, then wait for the pool's open transaction groups to sync.

        `sync` first: writes through a zvol's device node can sit in the page cache, where
        `zpool sync` does not see them. Until the sync, used/referenced lag the writes.
        """
        if pool is not None:
            check_pool_name(pool)
        self.run(["sync"])
        self.run(["zpool", "sync", *([pool] if pool else [])])

    # -- disks -----------------------------------------------------------------------------
    def list_disks(self) -> list[BlockDevice]:
        """The machine's whole disks, from lsblk."""
        return disks.list_disks(self._runner)

    def zvol_path(self, name: str) -> Path:
        """The zvol's device node, which udev links under /dev/zvol."""
        check_dataset_name(name)
        return Path("/dev/zvol") / name

    # -- pools -----------------------------------------------------------------------------
    def list_pools(self) -> list[Pool]:
        """All imported pools (`zpool list -H -p`)."""
        columns = ",".join(parse.POOL_COLUMNS)
        return parse.parse_zpool_list(self._out("zpool", "list", "-H", "-p", "-o", columns))

    def get_pool(self, name: str) -> Pool:
        """One imported pool."""
        check_pool_name(name)
        columns = ",".join(parse.POOL_COLUMNS)
        pools = parse.parse_zpool_list(self._out("zpool", "list", "-H", "-p", "-o", columns, name))
        if not pools:
            raise PoolNotFound(f"no such pool: {name}")
        return pools[0]

    def get_pool_properties(self, name: str, properties: Sequence[str] = ()) -> dict[str, str]:
        """Pool properties (`zpool get`), all when none are named."""
        check_pool_name(name)
        props = ",".join(properties) or "all"
        text = self._out("zpool", "get", "-H", "-p", "-o", "name,property,value", props, name)
        return parse.parse_zpool_get(text).get(name, {})

    def pool_status(self, name: str) -> PoolStatus:
        """`zpool status -p POOL`: health, vdev tree, scan state and errors."""
        check_pool_name(name)
        pools = parse.parse_zpool_status(self._out("zpool", "status", "-p", name))
        if not pools:
            raise PoolNotFound(f"no such pool: {name}")
        return pools[0]

    def create_argv(
        self,
        name: str,
        layout: PoolLayout,
        *,
        force: bool = False,
        pool_properties: Mapping[str, str] | None = None,
        fs_properties: Mapping[str, str] | None = None,
        mountpoint: str | None = None,
    ) -> list[str]:
        """The `zpool create` command line for a layout, with the panel defaults."""
        check_pool_name(name)
        layout.validate()
        argv = ["zpool", "create"] + (["-f"] if force else [])
        argv += property_args("-o", {**POOL_DEFAULTS, **(pool_properties or {})})
        argv += property_args("-O", {**ROOT_FS_DEFAULTS, **(fs_properties or {})})
        if mountpoint:
            argv += ["-m", mountpoint]
        return [*argv, name, *layout.vdev_args()]

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
        """Create a pool (ashift=12, root dataset lz4 and atime=off unless overridden)."""
        argv = self.create_argv(
            name,
            layout,
            force=force,
            pool_properties=pool_properties,
            fs_properties=fs_properties,
            mountpoint=mountpoint,
        )
        self.run(argv)

    def destroy_pool(self, name: str, *, force: bool = False) -> None:
        """`zpool destroy`."""
        check_pool_name(name)
        self.run(["zpool", "destroy", *(["-f"] if force else []), name])

    def export_pool(self, name: str, *, force: bool = False) -> None:
        """`zpool export`."""
        check_pool_name(name)
        self.run(["zpool", "export", *(["-f"] if force else []), name])

    def importable_pools(self, search_dirs: Sequence[str] = ()) -> list[ImportablePool]:
        """`zpool import` with no pool argument: what is on the disks, not imported."""
        argv = ["zpool", "import", *self._dir_args(search_dirs)]
        result = self._runner(argv, timeout=self._timeout)
        # With nothing to import, zpool says so (on stderr) and may exit non-zero.
        if "no pools available" in result.stderr + result.stdout:
            return []
        if result.returncode != 0:
            raise classify(result.argv or tuple(argv), result.returncode, result.stderr)
        return parse.parse_zpool_import(result.stdout)

    def import_pool(
        self,
        name_or_guid: str,
        *,
        new_name: str | None = None,
        force: bool = False,
        search_dirs: Sequence[str] = (),
    ) -> None:
        """`zpool import [-f] [-d DIR] NAME|GUID [NEWNAME]`."""
        if not _GUID.fullmatch(name_or_guid):
            check_pool_name(name_or_guid)
        if new_name:
            check_pool_name(new_name)
        argv = ["zpool", "import", *(["-f"] if force else []), *self._dir_args(search_dirs)]
        self.run(argv + [name_or_guid] + ([new_name] if new_name else []))

    @staticmethod
    def _dir_args(search_dirs: Sequence[str]) -> list[str]:
        args: list[str] = []
        for directory in search_dirs:
            if not directory.startswith("/"):
                raise InvalidProperty(f"search directory must be absolute: {directory!r}")
            args += ["-d", directory]
        return args

    def scrub_start(self, pool: str) -> None:
        """Start a scrub (`zpool scrub`)."""
        check_pool_name(pool)
        self.run(["zpool", "scrub", pool])

    def scrub_stop(self, pool: str) -> bool:
        """Cancel a scrub (`zpool scrub -s`); False when none was running."""
        check_pool_name(pool)
        try:
            self.run(["zpool", "scrub", "-s", pool])
        except ZfsError as exc:
            if "no active scrub" in exc.stderr:
                return False
            raise
        return True

    def scrub_status(self, pool: str) -> ScrubStatus:
        """The pool's current or last scan."""
        return self.pool_status(pool).scan

    # -- dedup -----------------------------------------------------------------------------
    def _per_entry(self) -> bool:
        """OpenZFS before 2.3 prints DDT sizes per entry."""
        return not self.version().totals_in_ddt_stats

    def dedup_table(self, pool: str) -> DedupTable:
        """DDT summary + histogram from `zpool status -D`, sizes as totals."""
        check_pool_name(pool)
        text = self._out("zpool", "status", "-D", "-p", pool)
        return parse.parse_status_dedup(text, per_entry=self._per_entry())

    def dedup_table_zdb(self, pool: str) -> DedupTable:
        """Per-class DDT sizes and histogram from `zdb -DD`, sizes as totals."""
        check_pool_name(pool)
        text = self._out("zdb", "-DD", pool, timeout=self._long_timeout)
        return parse.parse_zdb_ddt(text, per_entry=self._per_entry())

    def simulate_dedup(self, pool: str) -> DedupSimulation:
        """`zdb -S POOL`: what dedup would save on the data already there."""
        check_pool_name(pool)
        text = self._out("zdb", "-S", pool, timeout=self._long_timeout)
        return parse.parse_zdb_simulation(text)

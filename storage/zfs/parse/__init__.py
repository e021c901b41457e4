"""Pure parsers over text captured from zpool, zfs, zdb, /proc and lsblk."""

from storage.zfs.parse.ddt import (
    parse_ddt_histogram,
    parse_status_dedup,
    parse_zdb_ddt,
    parse_zdb_simulation,
)
from storage.zfs.parse.lists import (
    DATASET_COLUMNS,
    POOL_COLUMNS,
    parse_arcstats,
    parse_lsblk,
    parse_version,
    parse_zfs_get,
    parse_zfs_list,
    parse_zpool_get,
    parse_zpool_list,
    split_rows,
)
from storage.zfs.parse.status import (
    parse_config,
    parse_scan,
    parse_zpool_import,
    parse_zpool_status,
    vdev_type_of,
)
from storage.zfs.parse.units import parse_ratio, parse_size

__all__ = [
    "DATASET_COLUMNS",
    "POOL_COLUMNS",
    "parse_arcstats",
    "parse_config",
    "parse_ddt_histogram",
    "parse_lsblk",
    "parse_ratio",
    "parse_scan",
    "parse_size",
    "parse_status_dedup",
    "parse_version",
    "parse_zdb_ddt",
    "parse_zdb_simulation",
    "parse_zfs_get",
    "parse_zfs_list",
    "parse_zpool_get",
    "parse_zpool_import",
    "parse_zpool_list",
    "parse_zpool_status",
    "split_rows",
    "vdev_type_of",
]

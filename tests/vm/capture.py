"""Capture real OpenZFS output as fixtures for the fast lane (runs inside the VM).

Run by `scripts/zfsvm.sh capture`, which copies the results to tests/zfs/fixtures/. Each command's
stdout goes to NAME.txt; failing commands' stderr to NAME.stderr; index.json records every argv
and exit status. The commands are the engine's own (same argv builders) wherever it has one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.disks import list_disks, lsblk_argv
from storage.zfs.parse import DATASET_COLUMNS, POOL_COLUMNS

MIB = 1 << 20
# What the parser tests compare `zfs list` with: captured right after it, with no write between.
SPACE_PROPERTIES = (
    "used", "referenced", "logicalreferenced", "refreservation", "reservation",
    "usedbydataset", "usedbychildren", "usedbysnapshots", "usedbyrefreservation",
)  # fmt: skip
OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "/mnt/out/fixtures")
INDEX: dict[str, dict[str, object]] = {}
ENGINE = CliZfsEngine(timeout=600)


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run a command the way the engine does (C locale, no shell, timeout)."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    return subprocess.run(argv, capture_output=True, text=True, timeout=900, env=env, check=False)


def cap(name: str, argv: list[str], *, expect_fail: bool = False) -> str:
    """Run argv and store its output as a fixture."""
    proc = run(argv)
    INDEX[name] = {"argv": argv, "returncode": proc.returncode}
    (OUT / f"{name}.txt").write_text(proc.stdout)
    if proc.returncode != 0 or expect_fail:
        (OUT / f"{name}.stderr").write_text(proc.stderr)
    failed = proc.returncode != 0
    mark = "ok" if failed == expect_fail else "UNEXPECTED"
    print(f"[{mark}] {name}: rc={proc.returncode} {' '.join(argv)}", flush=True)
    return proc.stdout


def sh(*argv: str) -> None:
    """A set-up command that must succeed."""
    proc = run(list(argv))
    if proc.returncode != 0:
        raise SystemExit(f"set-up failed: {' '.join(argv)}: {proc.stderr}")


def text_data(size: int) -> bytes:
    """Compressible text: Python sources from the guest."""
    data = b"".join(p.read_bytes() for p in sorted(Path("/usr/lib/python3.11").glob("*.py")))
    return (data * (size // len(data) + 1))[:size]


def build_pools(disks: list[str]) -> None:
    """tank: raidz1 + log + cache + spare; fast: mirror. Both with the panel defaults."""
    layout = PoolLayout(
        type="raidz1", groups=(tuple(disks[0:3]),), log=(disks[3],), cache=(disks[4],),
        spares=(disks[5],),
    )  # fmt: skip
    ENGINE.create_pool("tank", layout, force=True)
    ENGINE.create_pool("fast", PoolLayout.single("mirror", disks[6:8]), force=True)


def fill_tank() -> None:
    """Datasets and zvols of each kind, with real data of each kind."""
    for name, props in {
        "random": {"compression": "lz4"},
        "text": {"compression": "gzip-9", "nasui:comment": "text files"},
        # a reservation above what it holds: charged to tank's usedbychildren, not to its used
        "zstd": {"compression": "zstd", "quota": str(512 * MIB), "reservation": str(32 * MIB)},
        "dedup": {"compression": "off", "dedup": "on", "recordsize": "16384"},
    }.items():
        ENGINE.create_dataset(f"tank/{name}", properties=props)
    ENGINE.create_zvol("tank/thick", size=64 * MIB, volblocksize=16384)
    ENGINE.create_zvol("tank/thin", size=128 * MIB, volblocksize=4096, sparse=True,
                       properties={"dedup": "on", "compression": "off"})  # fmt: skip
    block = os.urandom(2 * MIB)
    Path("/tank/random/data").write_bytes(os.urandom(8 * MIB))
    # 2 MiB rewritten after a snapshot: the old blocks show as usedbysnapshots
    sh("zfs", "snapshot", "tank/random@before")
    with open("/tank/random/data", "r+b") as rewrite:
        rewrite.write(os.urandom(2 * MIB))
    Path("/tank/text/data").write_bytes(text_data(8 * MIB))
    Path("/tank/zstd/data").write_bytes(text_data(4 * MIB))
    Path("/tank/dedup/data").write_bytes(block * 3)
    sh("udevadm", "settle", "-t", "30")
    with open("/dev/zvol/tank/thin", "r+b") as vol:
        for offset in (0, 16 * MIB, 64 * MIB):
            vol.seek(offset)
            vol.write(block)
    os.sync()
    sh("zpool", "sync")


def capture_reads() -> None:
    """Listings, status, properties, dedup reports, arcstats, lsblk."""
    cap("version", ["zfs", "version"])
    cap("zpool_list", ["zpool", "list", "-H", "-p", "-o", ",".join(POOL_COLUMNS)])
    cap("zpool_status_tank", ["zpool", "status", "-p", "tank"])
    cap("zpool_status_fast", ["zpool", "status", "-p", "fast"])
    cap("zpool_get_tank", ["zpool", "get", "-H", "-p", "-o", "name,property,value", "all", "tank"])
    columns = ",".join(DATASET_COLUMNS)
    cap("zfs_list_tank", ["zfs", "list", "-H", "-p", "-o", columns, "-t", "filesystem,volume",
                          "-r", "tank"])  # fmt: skip
    cap("zfs_get_space_tank", ["zfs", "get", "-H", "-p", "-o", "name,property,value,source",
                               ",".join(SPACE_PROPERTIES), "-t", "filesystem,volume", "-r",
                               "tank"])  # fmt: skip
    cap("zfs_get_text", ["zfs", "get", "-H", "-p", "-o", "name,property,value,source", "all",
                         "tank/text"])  # fmt: skip
    cap("zpool_status_D_tank", ["zpool", "status", "-D", "-p", "tank"])
    cap("zpool_status_D_fast", ["zpool", "status", "-D", "-p", "fast"])
    cap("zdb_DD_tank", ["zdb", "-DD", "tank"])
    cap("zdb_DD_fast", ["zdb", "-DD", "fast"])
    cap("zdb_S_tank", ["zdb", "-S", "tank"])
    (OUT / "arcstats.txt").write_text(Path("/proc/spl/kstat/zfs/arcstats").read_text())
    cap("lsblk", lsblk_argv())


def capture_monitoring() -> None:
    """What the monitoring collectors read: /proc, arcstats before and after writing to a dedup
    zvol, and `zpool iostat` (since import, and over a 1 s interval while writing)."""
    for name in ("stat", "meminfo", "vmstat", "loadavg"):
        (OUT / f"mon_proc_{name}.txt").write_text(Path(f"/proc/{name}").read_text())
    arcstats = Path("/proc/spl/kstat/zfs/arcstats")
    (OUT / "mon_arcstats_before.txt").write_text(arcstats.read_text())
    cap("mon_zpool_iostat", ["zpool", "iostat", "-H", "-p"])
    block = os.urandom(MIB)
    writer = subprocess.Popen(["zpool", "iostat", "-H", "-p", "-y", "1", "1"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    with open("/dev/zvol/tank/thin", "r+b") as vol:
        for offset in range(0, 32 * MIB, MIB):
            vol.seek(offset)
            vol.write(block)
            os.fsync(vol.fileno())
    (OUT / "mon_zpool_iostat_y_1_1.txt").write_text(writer.communicate(timeout=60)[0])
    sh("zpool", "sync", "tank")
    (OUT / "mon_arcstats_after.txt").write_text(arcstats.read_text())


def capture_scans() -> None:
    """Scrub in progress (if caught), finished and canceled; a degraded mirror."""
    sh("zpool", "scrub", "tank")
    cap("zpool_status_scrub_started", ["zpool", "status", "-p", "tank"])
    for _ in range(600):
        if "scrub repaired" in run(["zpool", "status", "tank"]).stdout:
            break
        time.sleep(0.5)
    cap("zpool_status_scrub_done", ["zpool", "status", "-p", "tank"])
    sh("zpool", "scrub", "tank")
    run(["zpool", "scrub", "-s", "tank"])
    cap("zpool_status_scrub_canceled", ["zpool", "status", "-p", "tank"])
    sh("zpool", "offline", "fast", status_leaf("fast"))
    cap("zpool_status_degraded", ["zpool", "status", "-p", "fast"])
    sh("zpool", "online", "fast", status_leaf("fast"))


def status_leaf(pool: str) -> str:
    """The last leaf device of a pool, as zpool names it."""
    return ENGINE.pool_status(pool).vdevs[-1].leaves[-1].name


def capture_errors(disks: list[str]) -> None:
    """stderr of the failures the engine classifies."""
    spare_file = "/tmp/spare-vdev.img"  # an unused vdev, so only the name is at fault
    with open(spare_file, "wb") as img:
        img.truncate(128 * MIB)
    # "fast": its mountpoint is empty ("tank"'s is not, and zpool complains about that first)
    cap("err_mountpoint_not_empty", ENGINE.create_argv("tank", PoolLayout.single("stripe",
        [spare_file])), expect_fail=True)  # fmt: skip
    cap("err_pool_exists", ENGINE.create_argv("fast", PoolLayout.single("stripe", [spare_file])),
        expect_fail=True)  # fmt: skip
    cap("err_device_in_use", ENGINE.create_argv("other", PoolLayout.single("stripe", [disks[0]]),
        force=True), expect_fail=True)  # fmt: skip
    cap("err_pool_not_found", ["zpool", "status", "-p", "nosuchpool"], expect_fail=True)
    cap("err_dataset_exists", ["zfs", "create", "tank/text"], expect_fail=True)
    cap("err_dataset_not_found", ["zfs", "destroy", "tank/nothing"], expect_fail=True)
    cap("err_invalid_property", ["zfs", "create", "-o", "compression=snappy", "tank/x"],
        expect_fail=True)  # fmt: skip
    cap("err_no_space", ENGINE.zvol_argv("tank/huge", size=64 << 30), expect_fail=True)
    sh("zfs", "create", "tank/parent")
    sh("zfs", "create", "tank/parent/child")
    cap("err_has_children", ["zfs", "destroy", "tank/parent"], expect_fail=True)
    with open("/dev/zvol/tank/thick", "rb"):
        cap("err_dataset_busy", ["zfs", "destroy", "tank/thick"], expect_fail=True)
        cap("err_pool_busy", ["zpool", "export", "tank"], expect_fail=True)
    cap("err_import_not_found", ["zpool", "import", "nosuchpool"], expect_fail=True)


def capture_import() -> None:
    """`zpool import` listings: with two exported pools, and with none."""
    sh("zpool", "export", "fast")
    sh("zpool", "export", "tank")
    cap("zpool_import", ["zpool", "import"])
    sh("zpool", "import", "tank")
    sh("zpool", "import", "fast")
    cap("zpool_import_none", ["zpool", "import"], expect_fail=True)


def capture_layouts(disks: list[str]) -> None:
    """Status of the other layouts: RAID10 + raidz2, then raidz3 + stripe."""
    for pools in (
        {"r10": PoolLayout(type="mirror", groups=(tuple(disks[0:2]), tuple(disks[2:4]))),
         "rz2": PoolLayout.single("raidz2", disks[4:8])},
        {"rz3": PoolLayout.single("raidz3", disks[0:5]),
         "str": PoolLayout.single("stripe", disks[5:8])},
    ):  # fmt: skip
        for name, layout in pools.items():
            ENGINE.create_pool(name, layout, force=True)
        if "r10" in pools:
            cap("zpool_list_two", ["zpool", "list", "-H", "-p", "-o", ",".join(POOL_COLUMNS)])
            cap("zpool_status_all", ["zpool", "status", "-p"])
        for name in pools:
            cap(f"zpool_status_{name}", ["zpool", "status", "-p", name])
            sh("zpool", "destroy", "-f", name)


def main() -> None:
    """Build the pools, capture everything, write index.json."""
    OUT.mkdir(parents=True, exist_ok=True)
    disks = sorted(
        (d for d in list_disks() if d.serial.startswith("NASUI")), key=lambda d: d.serial
    )
    paths = [d.path for d in disks]
    if len(paths) < 8:
        raise SystemExit(f"capture needs 8 blank disks, found {paths}")
    build_pools(paths)
    fill_tank()
    capture_reads()
    capture_monitoring()
    capture_scans()
    capture_errors(paths)
    capture_import()
    sh("zpool", "destroy", "-f", "tank")
    sh("zpool", "destroy", "-f", "fast")
    capture_layouts(paths)
    (OUT / "index.json").write_text(json.dumps(INDEX, indent=1, sort_keys=True) + "\n")
    print(f"captured {len(INDEX)} commands into {OUT}")


if __name__ == "__main__":
    main()

"""The kernel side of LIO: rtslib (imported lazily), configfs and the modules to load.

LIO has no daemon: "running" means the target core is loaded and configfs is mounted.
rtslib_fb is imported only when called, so the engine imports on machines without it.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sharing.iscsi.engine.errors import EngineFailure, EngineStartFailed, EngineUnavailable
from sharing.iscsi.engine.lio.rules import ENGINE

CONFIGFS = Path("/sys/kernel/config")
MODULES = (
    "configfs",
    "target_core_mod",
    "target_core_iblock",
    "target_core_file",
    "iscsi_target_mod",
)
T = TypeVar("T")


def rtslib() -> Any:
    """The rtslib_fb module, or EngineUnavailable."""
    try:
        import rtslib_fb
    except ImportError as exc:
        raise EngineUnavailable(
            f"{ENGINE}: python rtslib-fb is not installed (Debian: python3-rtslib-fb)"
        ) from exc
    return rtslib_fb


def guard(what: str, func: Callable[[], T]) -> T:
    """Run one rtslib call, turning its errors into EngineFailure."""
    rts = rtslib()
    try:
        return func()
    except (rts.RTSLibError, OSError) as exc:
        raise EngineFailure(f"{ENGINE}: {what}: {exc}") from exc


def root() -> Any:
    """An RTSRoot, or EngineUnavailable when the target core is not there."""
    rts = rtslib()
    if not (CONFIGFS / "target").is_dir():
        raise EngineUnavailable(
            f"{ENGINE}: the LIO target core is not loaded ({CONFIGFS}/target is missing): "
            "start the engine (modprobe target_core_mod, mount configfs)"
        )
    try:
        return rts.RTSRoot()
    except (rts.RTSLibError, OSError) as exc:
        raise EngineUnavailable(f"{ENGINE}: rtslib cannot open LIO: {exc}") from exc


def ensure_pr_dir(root: Any) -> Path:
    """Create `<db_root>/pr`, where LIO keeps persistent-reservation state; return it.

    Every PERSISTENT RESERVE OUT makes the kernel rewrite `pr/aptpl_<serial>` there (an
    empty record when APTPL is off). Without the directory each one fails with LOGICAL
    UNIT COMMUNICATION FAILURE, and SCSI-3 reservations (clusters, VMware) never work.
    Debian's targetcli-fb makes the db_root (/etc/rtslib-fb-target) but not `pr`.
    """
    pr = Path(root.dbroot) / "pr"
    pr.mkdir(mode=0o700, parents=True, exist_ok=True)
    return pr


def fabric() -> Any:
    """The iSCSI fabric module (discovery auth lives there)."""
    return guard("iscsi fabric", lambda: rtslib().FabricModule("iscsi"))


def is_loaded() -> bool:
    """Whether rtslib is importable and the LIO target core is loaded (configfs)."""
    try:
        rtslib()
    except EngineUnavailable:
        return False
    return (CONFIGFS / "target" / "core").is_dir()


def load(modprobe: str, timeout: float) -> None:
    """Load the target modules and mount configfs (each step skipped when already done)."""
    for module in MODULES:
        if module == "configfs" and CONFIGFS.is_dir() and _is_mounted(CONFIGFS):
            continue
        _run([modprobe, module], timeout)
    # iscsi_target_mod needs crc32c at login (a soft dependency): without it every
    # login is dropped silently, so insist on it here
    if not _has_crc32c():
        _run([modprobe, "crc32c"], timeout)
    if not _is_mounted(CONFIGFS):
        _run(["mount", "-t", "configfs", "configfs", str(CONFIGFS)], timeout)


def _run(argv: Sequence[str], timeout: float) -> None:
    """Run modprobe or mount; a failure means LIO cannot be used on this kernel."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError as exc:
        raise EngineUnavailable(f"{ENGINE}: {argv[0]} not found", argv=argv) from exc
    except subprocess.TimeoutExpired as exc:
        raise EngineStartFailed(f"{ENGINE}: {argv[0]} timed out", argv=argv) from exc
    if done.returncode != 0:
        raise EngineUnavailable(
            f"{ENGINE}: {' '.join(argv)} failed (is LIO in this kernel?)",
            argv=argv,
            returncode=done.returncode,
            stderr=done.stderr,
        )


def _is_mounted(path: Path) -> bool:
    """Whether something is mounted at `path` (per /proc/mounts)."""
    try:
        with open("/proc/mounts") as mounts:
            return any(line.split()[1] == str(path) for line in mounts if line.strip())
    except OSError:
        return False


def _has_crc32c() -> bool:
    """Whether the kernel offers crc32c (built in or loaded)."""
    try:
        return "crc32c" in Path("/proc/crypto").read_text()
    except OSError:
        return False

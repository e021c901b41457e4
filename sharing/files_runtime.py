"""The file servers as the panel sees them: the accounts they admit and the SMB server.

Which engines run (wrapped on build machines, system on the appliance), applying the
database's desired state to them, restoring it after a refused change, start and stop.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings

from sharing.files_state import build_accounts, build_nfs_state, build_smb_state
from sharing.nfs.errors import NfsEngineError
from sharing.smb.errors import SmbEngineError

if TYPE_CHECKING:
    from sharing.nfs.engine import NfsEngine
    from sharing.smb.engine import SmbEngine

log = logging.getLogger(__name__)
ACTIONS = ("start", "stop", "restart")


class FilesApplyError(Exception):
    """A file server refused the configuration; the message says which and why."""


@functools.cache
def smb_engine() -> SmbEngine:
    """The SMB engine of this process: a private wrapped smbd, or the appliance's own.

    In system mode the engine also keeps the machine's accounts in step (a record on the
    data partition says which ones the panel made).
    """
    from sharing.accounts.system import SystemAccounts
    from sharing.smb.engine import SmbEngine

    run_dir = Path(settings.DATA_DIR) / "smb"
    if settings.NASUI_SMB_MODE == "system":
        record = Path(settings.DATA_DIR) / "accounts.json"
        return SmbEngine(run_dir, mode="system", accounts=SystemAccounts(record))
    return SmbEngine(run_dir, mode="wrapped")


def nt_hash(username: str, password: str) -> str:
    """The NT hash of `password`, made by Samba's own tool (the password goes nowhere else)."""
    try:
        return smb_engine().nt_hash(username, password)
    except SmbEngineError as exc:
        raise FilesApplyError(f"Samba could not take the password: {exc}") from exc


def _stopped_flag() -> Path:
    """Present while a user has stopped the SMB service: the supervisor leaves it stopped."""
    return Path(settings.DATA_DIR) / "smb" / "stopped-by-user"


@functools.cache
def nfs_engine() -> NfsEngine | None:
    """The kernel NFS server's engine, or None where exports are kept but not served."""
    if settings.NASUI_NFS != "kernel":
        return None
    from sharing.nfs.engine import NfsEngine

    return NfsEngine()


def apply_configuration() -> None:
    """Give the accounts, the SMB server and the NFS server the database's state."""
    try:
        smb_engine().apply(build_smb_state(port=settings.NASUI_SMB_PORT))
    except (SmbEngineError, ValueError) as exc:
        raise FilesApplyError(f"The SMB server refused the change: {exc}") from exc
    try:
        nfs = nfs_engine()
        if nfs is not None:
            nfs.apply(build_nfs_state())
    except (NfsEngineError, ValueError) as exc:
        raise FilesApplyError(f"The NFS server refused the change: {exc}") from exc


def nfs_status() -> dict[str, Any]:
    """Whether exports are served here, and whether the kernel server runs."""
    if settings.NASUI_NFS != "kernel":
        return {"served": False, "running": False}
    try:
        nfs = nfs_engine()
        return {"served": True, "running": nfs is not None and nfs.is_running()}
    except NfsEngineError as exc:
        return {"served": True, "running": False, "message": str(exc)}


def restore_configuration() -> None:
    """After a refused change was rolled back, give the servers the saved state again."""
    try:
        apply_configuration()
    except FilesApplyError:
        log.exception("could not restore the file-sharing configuration")


def control(action: str) -> None:
    """Start, stop or restart the SMB service; start applies the configuration first."""
    if action not in ACTIONS:
        raise FilesApplyError(f"unknown action {action!r}; use start, stop or restart")
    engine = smb_engine()
    flag = _stopped_flag()
    try:
        if action in ("stop", "restart"):
            flag.parent.mkdir(parents=True, exist_ok=True)
            flag.touch()
            engine.stop()
        if action in ("start", "restart"):
            flag.unlink(missing_ok=True)
            engine.apply(build_smb_state(port=settings.NASUI_SMB_PORT))
            engine.start()
    except (SmbEngineError, ValueError) as exc:
        raise FilesApplyError(f"The SMB server could not {action}: {exc}") from exc


def supervise_once(*, first: bool = False) -> bool:
    """Start a dead smbd with the saved configuration unless a user stopped it; True if started.

    `first` (the service's first check, at boot) applies everything even when SMB is stopped:
    after an upgrade the accounts and NFS exports must come back whatever smbd's state.
    """
    engine = smb_engine()
    if first:
        apply_configuration()
    if _stopped_flag().exists() or engine.is_running():
        return False
    try:
        if not first:  # the first check has just applied everything
            engine.apply(build_smb_state(port=settings.NASUI_SMB_PORT))
        engine.start()
    except (SmbEngineError, ValueError) as exc:
        raise FilesApplyError(f"The SMB server could not start: {exc}") from exc
    return True


def service_status() -> dict[str, Any]:
    """Mode, port, running state and the controls that make sense."""
    status: dict[str, Any] = {
        "mode": settings.NASUI_SMB_MODE,
        "port": settings.NASUI_SMB_PORT,
        "running": False,
    }
    try:
        status["running"] = smb_engine().is_running() and not _stopped_flag().exists()
    except SmbEngineError as exc:
        status["message"] = str(exc)
    status["actions"] = ["restart", "stop"] if status["running"] else ["start"]
    return status


__all__ = ["FilesApplyError", "apply_configuration", "build_accounts", "control", "nt_hash"]

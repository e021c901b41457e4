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

from nasui.lib.switch import ServiceSwitch, UnknownAction, check_action
from sharing.apply import configuration_lock
from sharing.models import NfsSettings, SmbSettings
from sharing.nfs.engine.errors import NfsEngineError
from sharing.smb.engine.errors import SmbEngineError
from sharing.smb.selectors import build_accounts, build_nfs_state, build_smb_state

if TYPE_CHECKING:
    from sharing.nfs.engine.server import NfsEngine
    from sharing.smb.engine.server import SmbEngine

log = logging.getLogger(__name__)
LOCK = "files"  # the apply lock of accounts, SMB and NFS (sharing.apply)
NOT_SERVED = (
    "This machine runs no NFS server for the panel (NASUI_NFS=none): exports are kept, and "
    "served where the panel drives the kernel NFS server (NASUI_NFS=kernel)."
)


class FilesApplyError(Exception):
    """A file server refused the configuration; the message says which and why."""


@functools.cache
def smb_engine() -> SmbEngine:
    """The SMB engine of this process: a private wrapped smbd, or the appliance's own.

    In system mode the engine also keeps the machine's accounts in step (a record on the
    data partition says which ones the panel made).
    """
    from sharing.accounts.engine.system import SystemAccounts
    from sharing.smb.engine.server import SmbEngine

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


def smb_switch() -> ServiceSwitch:
    """The user's Start or Stop of the SMB service, kept next to smbd's files."""
    return ServiceSwitch(Path(settings.DATA_DIR) / "smb")


def nfs_switch() -> ServiceSwitch:
    """The user's Start or Stop of the NFS service."""
    return ServiceSwitch(Path(settings.DATA_DIR) / "nfs")


@functools.cache
def nfs_engine() -> NfsEngine | None:
    """The kernel NFS server's engine, or None where exports are kept but not served."""
    if settings.NASUI_NFS != "kernel":
        return None
    from sharing.nfs.engine.server import NfsEngine

    return NfsEngine()


def apply_configuration() -> None:
    """Give the accounts, the SMB server and the NFS server the database's state."""
    _apply_smb()
    _apply_nfs()


def _apply_smb() -> None:
    """The accounts and smb.conf, as the database has them."""
    try:
        smb_engine().apply(build_smb_state(port=settings.NASUI_SMB_PORT))
    except (SmbEngineError, ValueError) as exc:
        raise FilesApplyError(f"The SMB server refused the change: {exc}") from exc


def _apply_nfs() -> None:
    """The exports file, as the database has it (where the panel drives an NFS server)."""
    try:
        nfs = nfs_engine()
        if nfs is not None:
            nfs.apply(build_nfs_state())
    except (NfsEngineError, ValueError) as exc:
        raise FilesApplyError(f"The NFS server refused the change: {exc}") from exc


def restore_configuration() -> None:
    """After a refused change was rolled back, give the servers the saved state again."""
    try:
        apply_configuration()
    except FilesApplyError:
        log.exception("could not restore the file-sharing configuration")


def control(action: str) -> None:
    """Start, stop or restart the SMB service; start applies the configuration first."""
    try:
        check_action(action)
        smb_switch().act(action, stop=smb_engine().stop, start=_smb_start)
    except UnknownAction as exc:
        raise FilesApplyError(str(exc)) from exc
    except (SmbEngineError, ValueError) as exc:
        raise FilesApplyError(f"The SMB server could not {action}: {exc}") from exc


def _smb_start(*, applied: bool = False) -> None:
    """Give smbd the saved configuration (unless just `applied`) and start it."""
    if not applied:
        with configuration_lock(LOCK):
            smb_engine().apply(build_smb_state(port=settings.NASUI_SMB_PORT))
    smb_engine().start()


def supervise_once(*, first: bool = False) -> bool:
    """Start a dead smbd with the saved configuration unless a user stopped it; True if started.

    `first` (the service's first check, at boot) applies everything even when SMB is stopped:
    after an upgrade the accounts and NFS exports must come back whatever smbd's state. It
    also starts or leaves stopped SMB and NFS as "start at boot" and this boot's choices say.
    """
    engine = smb_engine()
    if first:
        _apply_at_boot()
        _nfs_first_check()
        wanted = smb_switch().first_check(enabled=SmbSettings.load().start_at_boot)
        if not wanted or engine.is_running():
            return False
    elif smb_switch().held_stopped() or engine.is_running():
        return False
    try:
        _smb_start(applied=first)  # the first check has just applied everything
    except (SmbEngineError, ValueError) as exc:
        raise FilesApplyError(f"The SMB server could not start: {exc}") from exc
    return True


def _apply_at_boot() -> None:
    """Accounts, SMB and NFS as committed in the database, whatever each service's state."""
    with configuration_lock(LOCK):
        _apply_smb()
        try:
            _apply_nfs()
        except FilesApplyError:  # the exports must not keep SMB down: the Services page says
            log.exception("the NFS exports could not be applied at boot")


def service_status() -> dict[str, Any]:
    """Mode, port, running state and the controls that make sense."""
    status: dict[str, Any] = {
        "mode": settings.NASUI_SMB_MODE,
        "port": settings.NASUI_SMB_PORT,
        "running": False,
    }
    try:
        status["running"] = smb_engine().is_running() and not smb_switch().held_stopped()
    except SmbEngineError as exc:
        status["message"] = str(exc)
    status["actions"] = ["restart", "stop"] if status["running"] else ["start"]
    return status


# -- NFS: the kernel server, where the panel drives one (NASUI_NFS=kernel) -------------------


def nfs_status() -> dict[str, Any]:
    """Whether exports are served here, whether the kernel server runs, and its controls."""
    if settings.NASUI_NFS != "kernel":
        return {"served": False, "running": False, "actions": [], "message": NOT_SERVED}
    status: dict[str, Any] = {"served": True, "running": False}
    try:
        nfs = nfs_engine()
        status["running"] = nfs is not None and nfs.is_running()
    except NfsEngineError as exc:
        status["message"] = str(exc)
    status["actions"] = ["restart", "stop"] if status["running"] else ["start"]
    return status


def nfs_control(action: str) -> None:
    """Start (the kernel server, then the exports), stop or restart the NFS service."""
    nfs = nfs_engine()
    if nfs is None:
        raise FilesApplyError(NOT_SERVED)
    try:
        check_action(action)
        nfs_switch().act(action, stop=nfs.stop, start=lambda: _nfs_start(nfs))
    except UnknownAction as exc:
        raise FilesApplyError(str(exc)) from exc
    except (NfsEngineError, ValueError) as exc:
        raise FilesApplyError(f"The NFS server could not {action}: {exc}") from exc


def _nfs_start(nfs: NfsEngine) -> None:
    """Start the kernel server and make the saved exports live."""
    nfs.start()
    with configuration_lock(LOCK):
        nfs.apply(build_nfs_state())


def _nfs_first_check() -> None:
    """At boot: start an enabled NFS server, stop a disabled one (its unit may be enabled).

    A failure is logged, not raised: it must not keep SMB from starting (the Services page
    shows NFS stopped, and its Start says why).
    """
    nfs = nfs_engine()
    if nfs is None:
        return
    try:
        if nfs_switch().first_check(enabled=NfsSettings.load().start_at_boot):
            _nfs_start(nfs)
        elif nfs.is_running():
            nfs.stop()
    except (NfsEngineError, ValueError):
        log.exception("the NFS server's start at boot failed")


__all__ = ["FilesApplyError", "apply_configuration", "build_accounts", "control", "nt_hash"]

"""The SMB server as the panel sees it: which smbd runs, and its ServiceRuntime.

Build machines run a private "wrapped" smbd with the panel's accounts in its own files; the
appliance runs the system's smbd on port 445 with real accounts, kept in step by the engine.
Applying SMB applies the accounts too: smbd admits exactly the panel's users.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from django.conf import settings

from nasui.lib.switch import LEFT_STOPPED, ServiceSwitch, UnknownAction, check_action
from sharing.accounts.engine.system import SystemAccounts
from sharing.apply import configuration_lock
from sharing.models import SmbSettings
from sharing.runtime import ApplyError, ServiceStatus, refused
from sharing.smb.engine.errors import SmbEngineError
from sharing.smb.engine.server import SmbEngine
from sharing.smb.selectors import build_smb_state

log = logging.getLogger(__name__)
ENGINE_LABELS = {"system": "system smbd", "wrapped": "wrapped smbd (private accounts)"}


@functools.cache
def smb_engine() -> SmbEngine:
    """The SMB engine of this process: a private wrapped smbd, or the appliance's own.

    In system mode the engine also keeps the machine's accounts in step (a record on the
    data partition says which ones the panel made).
    """
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
        raise refused("Samba could not take the password", exc) from exc


def switch() -> ServiceSwitch:
    """The user's Start or Stop of the SMB service, kept next to smbd's files."""
    return ServiceSwitch(Path(settings.DATA_DIR) / "smb")


def _state_applied() -> None:
    """The accounts and smb.conf, as the database has them."""
    smb_engine().apply(build_smb_state(port=settings.NASUI_SMB_PORT))


def _start(*, applied: bool = False) -> None:
    """Give smbd the saved configuration (unless just `applied`) and start it."""
    if not applied:
        with configuration_lock(SmbRuntime.lock):
            _state_applied()
    smb_engine().start()


class SmbRuntime:
    """smbd (and the accounts it admits) as a ServiceRuntime."""

    name = "smb"
    label = "SMB"
    lock = "files"  # accounts, SMB and NFS: one apply lock (sharing.apply)

    def settings(self) -> SmbSettings:
        """Its settings row (names, bind addresses, start at boot)."""
        return SmbSettings.load()

    def apply(self) -> None:
        """Give the accounts and smbd the database's state; ApplyError if Samba refuses."""
        try:
            _state_applied()
        except (SmbEngineError, ValueError) as exc:
            raise refused("The SMB server refused the change", exc) from exc

    def restore(self) -> None:
        """After a refused change was rolled back, give smbd the saved state again."""
        try:
            self.apply()
        except ApplyError:
            log.exception("could not restore the SMB configuration")

    def status(self) -> ServiceStatus:
        """Whose smbd runs, on which port, and whether it runs."""
        mode = str(settings.NASUI_SMB_MODE)
        running, message = False, ""
        try:
            running = smb_engine().is_running() and not switch().held_stopped()
        except SmbEngineError as exc:
            message = str(exc)
        label = ENGINE_LABELS.get(mode, mode)
        port = int(settings.NASUI_SMB_PORT)
        return ServiceStatus(running, message=message, engine=mode, engine_label=label, port=port)

    def control(self, action: str) -> None:
        """Start, stop or restart smbd; start applies the configuration first."""
        try:
            check_action(action)
            switch().act(action, stop=smb_engine().stop, start=_start)
        except UnknownAction as exc:
            raise ApplyError(str(exc)) from exc
        except (SmbEngineError, ValueError) as exc:
            raise refused(f"The SMB server could not {action}", exc) from exc

    def supervise(self, *, first: bool = False) -> str | None:
        """Start a dead smbd with the saved configuration unless a user stopped it.

        `first` (the service's first check, at boot) applies the accounts and smb.conf even
        when SMB is stopped (after an upgrade the accounts must come back whatever smbd's
        state), then starts smbd or leaves it stopped as "start at boot" and this boot's
        choices say.
        """
        engine = smb_engine()
        if first:
            with configuration_lock(self.lock):
                self.apply()
            if not switch().first_check(enabled=self.settings().start_at_boot):
                return f"smbd left stopped ({LEFT_STOPPED})"
            if engine.is_running():
                return None
        elif switch().held_stopped() or engine.is_running():
            return None
        try:
            _start(applied=first)  # the first check has just applied everything
        except (SmbEngineError, ValueError) as exc:
            raise refused("The SMB server could not start", exc) from exc
        return "smbd started"

    def shutdown(self) -> str | None:
        """Stop smbd: nothing is left running behind its supervisor."""
        smb_engine().stop()
        return "smbd stopped"

"""The NFS server as the panel sees it: the kernel's, where the panel drives one, as a runtime.

`NASUI_NFS=kernel` (the appliance and the VM lane): exports go to the panel's own exports file
and `exportfs -ra`. `none` (build machines): exports are kept in the database, not served.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from django.conf import settings

from nasui.lib.switch import ServiceSwitch, UnknownAction, check_action
from sharing.apply import configuration_lock
from sharing.models import NfsSettings
from sharing.nfs.engine.errors import NfsEngineError
from sharing.nfs.engine.server import NfsEngine
from sharing.nfs.selectors import build_nfs_state
from sharing.runtime import ApplyError, ServiceStatus, refused

log = logging.getLogger(__name__)
NOT_SERVED = (
    "NFS is not served on this machine: exports are saved, but no client can mount them "
    "here. The NAS appliance serves them."
)
PORT = 2049


@functools.cache
def nfs_engine() -> NfsEngine | None:
    """The kernel NFS server's engine, or None where exports are kept but not served."""
    if settings.NASUI_NFS != "kernel":
        return None
    return NfsEngine()


def switch() -> ServiceSwitch:
    """The user's Start or Stop of the NFS service."""
    return ServiceSwitch(Path(settings.DATA_DIR) / "nfs")


def _start(nfs: NfsEngine) -> None:
    """Start the kernel server and make the saved exports live."""
    nfs.start()
    with configuration_lock(NfsRuntime.lock):
        nfs.apply(build_nfs_state())


class NfsRuntime:
    """The kernel's NFS server (where the panel drives one) as a ServiceRuntime."""

    name = "nfs"
    label = "NFS"
    lock = "files"  # exports map the local accounts: one apply lock with them (sharing.apply)

    def settings(self) -> NfsSettings:
        """Its settings row (NFSv3, start at boot)."""
        return NfsSettings.load()

    def apply(self) -> None:
        """The exports file, as the database has it (where the panel drives an NFS server)."""
        try:
            nfs = nfs_engine()
            if nfs is not None:
                nfs.apply(build_nfs_state())
        except (NfsEngineError, ValueError) as exc:
            raise refused("The NFS server refused the change", exc) from exc

    def restore(self) -> None:
        """After a refused change was rolled back, give the server the saved exports again."""
        try:
            self.apply()
        except ApplyError:
            log.exception("could not restore the NFS exports")

    def status(self) -> ServiceStatus:
        """Whether exports are served here and whether the kernel server runs."""
        nfs_mode = str(settings.NASUI_NFS)
        if nfs_mode != "kernel":
            label = "not served on this machine"
            return ServiceStatus(
                running=False, served=False, message=NOT_SERVED, engine=nfs_mode, engine_label=label
            )
        running, message = False, ""
        try:
            nfs = nfs_engine()
            running = nfs is not None and nfs.is_running()
        except NfsEngineError as exc:
            message = str(exc)
        label = "kernel NFS server"
        return ServiceStatus(
            running, message=message, engine="kernel", engine_label=label, port=PORT
        )

    def control(self, action: str) -> None:
        """Start (the kernel server, then the exports), stop or restart the NFS service."""
        nfs = nfs_engine()
        if nfs is None:
            raise ApplyError(NOT_SERVED)
        try:
            check_action(action)
            switch().act(action, stop=nfs.stop, start=lambda: _start(nfs))
        except UnknownAction as exc:
            raise ApplyError(str(exc)) from exc
        except (NfsEngineError, ValueError) as exc:
            raise refused(f"The NFS server could not {action}", exc) from exc

    def supervise(self, *, first: bool = False) -> str | None:
        """At boot only (`first`): the exports as committed, then start an enabled server and
        stop a disabled one (its unit may be enabled). Failures are logged, not raised: they
        must not keep SMB from starting (the Services page shows NFS stopped, its Start says
        why). Between boots the kernel server is not supervised.
        """
        if not first:
            return None
        with configuration_lock(self.lock):
            try:
                self.apply()
            except ApplyError:
                log.exception("the NFS exports could not be applied at boot")
        nfs = nfs_engine()
        if nfs is None:
            return None
        try:
            if switch().first_check(enabled=self.settings().start_at_boot):
                _start(nfs)
                return "NFS server started"
            if nfs.is_running():
                nfs.stop()
        except (NfsEngineError, ValueError):
            log.exception("the NFS server's start at boot failed")
        return None

    def shutdown(self) -> str | None:
        """Nothing: the kernel's NFS server keeps serving when the panel's supervisor exits."""
        return None

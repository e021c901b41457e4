"""The running iSCSI target as the panel sees it: which engine, and its ServiceRuntime.

Besides the runtime (apply, restore, status, start and stop, supervise), the helpers the
iSCSI forms and services need from the running engine: its rules, its first LUN, a LUN's
new size after its zvol grew.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from django.conf import settings

from nasui.lib.switch import LEFT_STOPPED, ServiceSwitch, UnknownAction, check_action
from sharing.apply import configuration_lock
from sharing.iscsi.engine.base import ChangeReport, IscsiEngine
from sharing.iscsi.engine.desired import DesiredState
from sharing.iscsi.engine.errors import InvalidSpec, IscsiError
from sharing.iscsi.selectors import build_desired_state
from sharing.iscsi.validation import target_iqn
from sharing.models import IscsiSettings, TargetExtent
from sharing.runtime import ApplyError, ServiceStatus
from storage import paths
from storage.datasets.selectors import zvol_device

log = logging.getLogger(__name__)
ENGINE_LABELS = {"lio": "LIO (kernel target)", "tgt": "tgt (userspace tgtd)"}


def engine_choice() -> str:
    """tgt or lio: `auto` picks LIO when the kernel has its target core and rtslib is here."""
    choice = str(settings.NASUI_ISCSI_ENGINE)
    if choice != "auto":
        return choice
    return "lio" if _lio_available() else "tgt"


def _lio_available() -> bool:
    """Whether the LIO target core is loaded (configfs) and rtslib-fb can drive it."""
    if not Path("/sys/kernel/config/target").exists():
        return False
    return importlib.util.find_spec("rtslib_fb") is not None


@functools.cache
def engine() -> IscsiEngine:
    """The engine of this process: the panel's own tgtd, or the kernel's LIO target."""
    choice = engine_choice()
    state = Path(settings.DATA_DIR) / choice
    state.mkdir(parents=True, exist_ok=True)
    # Only the chosen engine is imported: LIO's needs rtslib, tgt's the tgt tools.
    if choice == "lio":
        from sharing.iscsi.engine.lio import LioEngine

        # LIO forgets its configuration at reboot: the engine saves it here and restores it
        lio: IscsiEngine = LioEngine(save_file=state / "saveconfig.json")
        return lio
    from sharing.iscsi.engine.tgt import TgtEngine

    tgt: IscsiEngine = TgtEngine(state_dir=state)
    return tgt


def engine_name() -> str:
    """The active engine's name, for messages."""
    return engine_choice()


def _rules() -> ModuleType:
    """The running engine's rules module (importable without the engine's own libraries)."""
    if engine_choice() == "lio":
        from sharing.iscsi.engine.lio import rules as lio_rules

        return lio_rules
    from sharing.iscsi.engine.tgt import rules as tgt_rules

    return tgt_rules


def initiator_group_problem(initiators: Sequence[str], networks: Sequence[str]) -> str | None:
    """Why the running engine cannot enforce this initiator group, or None."""
    problem: str | None = _rules().initiator_group_problem(initiators, networks)
    return problem


def initiator_group_hint() -> str:
    """What an initiator group may hold with the running engine, for the form."""
    return str(_rules().GROUP_HINT)


def portal_problem(existing: Sequence[int]) -> str | None:
    """Why the running engine cannot use one more portal next to `existing` (ids), or None."""
    problem: str | None = _rules().portal_problem(existing)
    return problem


def portal_hint() -> str:
    """What portals mean with the running engine, for the form."""
    return str(_rules().PORTAL_HINT)


def first_lun() -> int:
    """The lowest LUN id the active engine offers (tgt keeps LUN 0 for its controller)."""
    return int(engine().first_lun)


def _path_of(kind: str, source: str) -> str:
    """Where an extent's data lives: the zvol's device (or sandbox file), or the file.

    A file is checked again here, not only when the extent was made: a link planted in its
    place later must not hand the target a file outside the pools.
    """
    if kind != "zvol":
        problem = paths.pool_path_problem(source)
        if problem:
            raise InvalidSpec(f"file extent {source}: {problem}")
        return source
    return zvol_device(source)  # "" when locked: its LUN is left out, named as missing


def desired_state(missing: list[str] | None = None) -> DesiredState:
    """The configuration in the database as the engine's desired state (extents whose data
    is gone are left out, and named in `missing`)."""
    try:
        return build_desired_state(_path_of, missing)
    except IscsiError as exc:
        raise ApplyError(f"The {engine_name()} target cannot apply this: {exc}") from exc


def refresh_luns_of(zvol: str) -> list[ChangeReport]:
    """Re-announce the size of every LUN served from `zvol` (after it grew); nothing if stopped."""
    target = engine()
    if not _serving(target):
        return []  # applied from the zvol's current size when the service starts
    basename = IscsiSettings.load().basename
    mappings = TargetExtent.objects.filter(extent__zvol=zvol, extent__kind="zvol")
    try:
        return [
            target.refresh_lun_size(target_iqn(basename, m.target.name), m.lun_id)
            for m in mappings.select_related("target")
        ]
    except IscsiError as exc:
        raise ApplyError(f"The {engine_name()} target kept the old size: {exc}") from exc


def _serving(target: IscsiEngine) -> bool:
    """Up and not stopped by a user (a stopped LIO keeps its modules loaded, empty)."""
    return target.is_running() and not switch().held_stopped()


def switch() -> ServiceSwitch:
    """The user's Start or Stop of the target, kept next to the engine's state."""
    return ServiceSwitch(Path(settings.DATA_DIR) / engine_choice())


def _start(target: IscsiEngine) -> ChangeReport:
    """Start the target and give it the saved configuration."""
    target.start()
    with configuration_lock(IscsiRuntime.lock):  # what is read is what is committed, till applied
        return target.apply(desired_state())


def _unserved() -> str:
    """Which extents are not served because their data is gone, in words ("" when none)."""
    missing: list[str] = []
    try:
        desired_state(missing)
    except ApplyError as exc:
        return str(exc)
    if not missing:
        return ""
    return f"Not served, their data is missing: {', '.join(missing)}."


def _sessions(target: IscsiEngine) -> list[dict[str, str]]:
    return [
        {"initiator": s.initiator, "address": s.address, "target": s.target}
        for s in target.sessions()
    ]


class IscsiRuntime:
    """The iSCSI target (LIO or tgt) as a ServiceRuntime."""

    name = "iscsi"
    label = "iSCSI"
    lock = "iscsi"

    def settings(self) -> IscsiSettings:
        """Its settings row (basename, port, discovery auth, start at boot)."""
        return IscsiSettings.load()

    def apply(self) -> None:
        """Reconcile the running target with the database; ApplyError if it refuses."""
        self.apply_report()

    def apply_report(self) -> ChangeReport:
        """As apply, with what the engine changed."""
        state = desired_state()
        try:
            target = engine()
            target.validate(state)
            if not _serving(target):
                # Saved now, applied when the service starts (the supervisor re-applies then).
                return ChangeReport(engine=engine_name())
            return target.apply(state)
        except IscsiError as exc:
            raise ApplyError(f"The {engine_name()} target refused the change: {exc}") from exc

    def restore(self) -> None:
        """After a refused change was rolled back, put the target back to the saved state."""
        try:
            self.apply()
        except ApplyError:
            log.exception("could not restore the iSCSI configuration")

    def status(self) -> ServiceStatus:
        """Engine, running state, connected sessions (and what went wrong reading them)."""
        running, sessions, message = False, [], ""
        try:
            target = engine()
            running = _serving(target)
            sessions = _sessions(target) if running else []
        except (IscsiError, ApplyError) as exc:
            message = str(exc)
        message = message or _unserved()
        name = engine_name()
        return ServiceStatus(
            running,
            message=message,
            engine=name,
            engine_label=ENGINE_LABELS.get(name, name),
            port=self.settings().port,
            sessions=sessions,
        )

    def control(self, action: str) -> None:
        """Start, stop or restart the target service; start re-applies the configuration."""
        try:
            check_action(action)
            target = engine()
            switch().act(action, stop=target.stop, start=lambda: _start(target))
        except UnknownAction as exc:
            raise ApplyError(str(exc)) from exc
        except IscsiError as exc:
            raise ApplyError(f"The {engine_name()} target could not {action}: {exc}") from exc

    def supervise(self, *, first: bool = False) -> str | None:
        """Bring a dead target back with the saved configuration, unless a user stopped it.

        `first` (the service's first check, at boot) starts and applies even when the target
        seems up (LIO's modules are loaded at boot but its configuration is empty until
        restored), or leaves it stopped when "start at boot" is off and no Start was made in
        this boot.
        """
        target = engine()
        if first:
            if not switch().first_check(enabled=self.settings().start_at_boot):
                return f"left stopped ({LEFT_STOPPED})"
        elif switch().held_stopped() or target.is_running():
            return None
        else:
            log.warning("the %s target is not running: starting it and re-applying", engine_name())
        try:
            report = _start(target)
        except IscsiError as exc:
            raise ApplyError(f"The {engine_name()} target could not start: {exc}") from exc
        return f"target started, {'; '.join(report.lines()) or 'nothing to configure'}"

    def shutdown(self) -> str | None:
        """Stop the target: nothing is left running behind its supervisor."""
        engine().stop()
        return "target stopped"


def refresh_grown_luns(zvol: str) -> None:
    """Make every LUN over this zvol announce its new capacity to initiators, within seconds."""
    try:
        refresh_luns_of(zvol)
    except ApplyError:
        # The zvol did grow; the LUN catches up at the next apply or restart. Say so in the log.
        log.exception("could not refresh the LUNs over %s after it grew", zvol)

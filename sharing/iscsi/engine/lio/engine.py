"""The LIO engine: the Linux kernel iSCSI target reconciled with the desired state via rtslib-fb.

`start` loads the modules, mounts configfs, makes the directory LIO keeps persistent
reservations in, and restores the save file (if any); `apply` reads LIO into plain data
(`parsing`), plans (`plan`) and runs the steps through rtslib (`steps`), then saves the
configuration; `stop` clears every target and storage object.

The engine owns LIO's whole configuration (like the tgt engine owns its tgtd): targets and
storage objects the desired state does not name are removed. Target aliases are ignored.
"""

from __future__ import annotations

import dataclasses
import functools
import tempfile
from collections.abc import Sequence
from pathlib import Path

from nasui.lib.locks import file_lock
from sharing.iscsi.engine.base import Change, ChangeReport, Session
from sharing.iscsi.engine.desired import DesiredState
from sharing.iscsi.engine.errors import EngineStartFailed, InvalidSpec
from sharing.iscsi.engine.host import device_size
from sharing.iscsi.engine.lio import kernel, parsing
from sharing.iscsi.engine.lio.backing import backing_facts, discards
from sharing.iscsi.engine.lio.plan import plan
from sharing.iscsi.engine.lio.rules import ENGINE, FIRST_LUN, so_differences, validate, wanted_state
from sharing.iscsi.engine.lio.state import LioState
from sharing.iscsi.engine.lio.steps import Step, run_step


class LioEngine:
    """Reconciles the kernel's LIO target; `save_file` keeps the configuration for reboots."""

    name = ENGINE
    first_lun = FIRST_LUN

    def __init__(
        self,
        save_file: Path | str | None = None,
        *,
        lock_file: Path | str | None = None,
        modprobe: str = "modprobe",
        # modprobe and mount: generous, since one killed while a module initialises fails that
        # load, and on a busy emulated boot a module takes tens of seconds
        timeout: float = 120.0,
    ) -> None:
        self.save_file = Path(save_file) if save_file is not None else None
        if lock_file is None:
            base = self.save_file.parent if self.save_file else Path(tempfile.gettempdir())
            lock_file = base / "nasui-lio.lock"
        self.lock_file = Path(lock_file)
        self.modprobe = modprobe
        self.timeout = timeout

    # -- lifecycle ---------------------------------------------------------------------------

    def is_running(self) -> bool:
        """Whether rtslib is importable and the LIO target core is loaded (configfs)."""
        return kernel.is_loaded()

    def start(self) -> None:
        """Load the LIO modules, mount configfs, and restore the save file if there is one."""
        kernel.rtslib()
        with file_lock(self.lock_file):
            kernel.load(self.modprobe, self.timeout)
            root = kernel.root()
            # creating the fabric's directory makes the target core load iscsi_target_mod
            kernel.guard(
                "iscsi fabric", lambda: (kernel.CONFIGFS / "target/iscsi").mkdir(exist_ok=True)
            )
            kernel.guard("reservations directory", lambda: kernel.ensure_pr_dir(root))
            if self.save_file is not None and self.save_file.is_file():
                nothing = not any(root.targets) and not any(root.storage_objects)
                if nothing:
                    errors = kernel.guard(
                        f"restore {self.save_file}",
                        lambda: root.restore_from_file(str(self.save_file), clear_existing=False),
                    )
                    if errors:
                        raise EngineStartFailed(f"{ENGINE}: restore: {'; '.join(map(str, errors))}")

    def stop(self) -> None:
        """Remove every target and storage object (the save file is kept for `start`)."""
        with file_lock(self.lock_file):
            if not self.is_running():
                return
            root = kernel.root()
            kernel.guard("clear", lambda: root.clear_existing(confirm=True))

    # -- reading -----------------------------------------------------------------------------

    def read_state(self) -> LioState:
        """LIO's current configuration as plain data."""
        return kernel.guard("read", lambda: parsing.read_state(kernel.root(), kernel.fabric()))

    def sessions(self) -> list[Session]:
        """Logged-in initiators: static ACL sessions with addresses, demo-mode ones by name."""
        return kernel.guard("sessions", lambda: list(parsing.sessions(kernel.root())))

    # -- changing ----------------------------------------------------------------------------

    def validate(self, desired: DesiredState) -> None:
        """Raise UnsupportedByEngine/InvalidSpec for what LIO cannot apply faithfully."""
        validate(desired)

    def _wanted(self, desired: DesiredState) -> LioState:
        """The LIO objects `desired` needs, with the sizes of plain files and discard support."""
        validate(desired)
        sizes: dict[str, int] = {}
        no_discard: set[str] = set()
        for spec in desired.targets:
            for lun in spec.luns:
                _plugin, size = backing_facts(lun.path)
                if size is not None:
                    sizes[lun.path] = size
                if not discards(lun.path):
                    no_discard.add(lun.path)
        return wanted_state(desired, sizes, no_discard)

    def plan(self, desired: DesiredState) -> list[Step]:
        """The steps `apply` would run now (for inspection and tests)."""
        return plan(self._wanted(desired), self.read_state())

    def apply(self, desired: DesiredState) -> ChangeReport:
        """Reconcile LIO with `desired`: add missing, change differing, remove stale."""
        with file_lock(self.lock_file):
            steps = plan(self._wanted(desired), self.read_state())
            changes = self._run_steps(steps)
        return ChangeReport(engine=ENGINE, changes=changes)

    def refresh_lun_size(self, iqn: str, lun: int) -> ChangeReport:
        """Make initiators see a LUN's current size.

        A block (zvol) LUN reports its device's live size; a plain file's size is fixed
        when LIO opens it, so that LUN is re-created (with its ACL mappings).
        """
        with file_lock(self.lock_file):
            running = self.read_state()
            target = running.target(iqn)
            name = dict(target.luns).get(lun) if target is not None else None
            so = running.so(name) if name is not None else None
            if target is None or so is None:
                raise InvalidSpec(f"{ENGINE}: {iqn} has no LUN {lun}")
            _plugin, size = backing_facts(so.path)
            if size is None:
                size = kernel.guard("size", lambda: device_size(so.path))
                change = Change("change", "lun", str(lun), iqn, f"size now {size} bytes")
                return ChangeReport(engine=ENGINE, changes=(change,))
            wanted_so = dataclasses.replace(so, size=size)
            if not so_differences(wanted_so, so):
                return ChangeReport(engine=ENGINE)
            # the same running state, with the file's new size wanted: re-creates that LUN
            others = tuple(s for s in running.storage_objects if s.name != so.name)
            wanted = dataclasses.replace(running, storage_objects=(*others, wanted_so))
            changes = self._run_steps(plan(wanted, running))
        return ChangeReport(engine=ENGINE, changes=changes)

    def _run_steps(self, steps: Sequence[Step]) -> tuple[Change, ...]:
        """Run the steps in order and report their changes; save the configuration after.

        The save runs even when a step failed: LIO then holds part of the plan, and the
        save file (what a reboot restores) must match what LIO holds, not an older state.
        """
        if not steps:
            return ()  # nothing changes, so the save file is still right
        changes: list[Change] = []
        try:
            for step in steps:
                kernel.guard(type(step).__name__, functools.partial(run_step, step))
                if step.change is not None:
                    changes.append(step.change)
        finally:
            self._save()
        return tuple(changes)

    def _save(self) -> None:
        """Write LIO's configuration to the save file (none given: nothing to do)."""
        if self.save_file is None:
            return
        self.save_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        root = kernel.root()
        kernel.guard(f"save {self.save_file}", lambda: root.save_to_file(str(self.save_file)))

"""The tgt engine: a private userspace tgtd reconciled with the desired state through tgtadm.

Decisions (see `rules` for the measurements behind them):
- LUN ids: tgt keeps LUN 0 for its controller, and initiators see it there; the engine
  refuses LUN 0 (UnsupportedByEngine naming tgt) instead of shifting ids, so the LUN an
  initiator sees is the LUN the panel shows. `first_lun` is 1.
- Access: empty initiators and networks -> `ALL`; names only -> name entries; networks
  only -> address entries; both -> refused (tgt would admit name OR address).
- CHAP accounts are global in tgt, hold one secret and cannot be edited: a changed secret
  means delete, re-create and re-bind. tgt never shows secrets, so the engine keeps salted
  fingerprints (and exact exported sizes) in a record that lives and dies with the daemon.
- Target alias: tgt has no TargetAlias setting; aliases are ignored (informational only).
- Thin provisioning: every LUN gets `thin_provisioning=1` (an update after `--op new`, which
  ignores it), so it advertises UNMAP and tgt punches holes in the backing file for it; tgtd
  shows the flag, so a running LUN without it is updated in place by the next apply.
  Connected initiators see it at their next VPD/READ CAPACITY(16) (tgt raises no unit
  attention for it). Conformance on such a LUN is that of a hand-made one: `iscsi-test-cu -t
  ALL` 221 of 230, every failure tgt's own (tests/iscsi/test_tgt_conformance.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from nasui.lib.files import write_if_changed
from nasui.lib.locks import file_lock
from nasui.lib.net import free_loopback_port
from nasui.lib.processes import log_tail
from sharing.iscsi.engine.base import Change, ChangeReport, Session
from sharing.iscsi.engine.desired import DesiredState, PortalSpec
from sharing.iscsi.engine.errors import EngineStartFailed, InvalidSpec
from sharing.iscsi.engine.host import backing_size
from sharing.iscsi.engine.tgt import records as rec
from sharing.iscsi.engine.tgt.admin import Tgtadm, find_binary
from sharing.iscsi.engine.tgt.daemon import MAX_SOCKET_PATH, TgtDaemon
from sharing.iscsi.engine.tgt.parsing import parse_accounts, parse_portals, parse_targets, sessions
from sharing.iscsi.engine.tgt.plan import plan
from sharing.iscsi.engine.tgt.rules import ENGINE, FIRST_LUN, validate
from sharing.iscsi.engine.tgt.state import RunningState
from sharing.iscsi.engine.tgt.steps import (
    THIN,
    Step,
    delete_lun_args,
    new_lun_args,
    param_args,
    run_step,
)


class TgtEngine:
    """Runs and reconciles one private tgtd whose files live under `state_dir`."""

    name = ENGINE
    first_lun = FIRST_LUN

    def __init__(
        self,
        state_dir: Path | str,
        *,
        portals: Sequence[PortalSpec] = (),
        tgtd_binary: str | None = None,
        tgtadm_binary: str | None = None,
        timeout: float = 15.0,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.portals = tuple(portals)
        self.run_dir = self._pick_run_dir()
        self.tgtadm = Tgtadm(
            self.run_dir / "tgtd.sock",
            binary=tgtadm_binary or find_binary("tgtadm"),
            timeout=timeout,
            log_path=self.run_dir / "tgtd.log",
        )
        self.daemon = TgtDaemon(
            self.run_dir, binary=tgtd_binary or find_binary("tgtd"), tgtadm=self.tgtadm
        )

    # -- files -----------------------------------------------------------------------------

    def _pick_run_dir(self) -> Path:
        """`state_dir/run`, or a private temp dir when that makes the socket path too long."""
        run_dir = self.state_dir / "run"
        if len(str(run_dir / "tgtd.sock")) <= MAX_SOCKET_PATH:
            return run_dir
        digest = hashlib.sha256(str(self.state_dir.resolve()).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"nasui-tgt-{digest}"

    @property
    def records_path(self) -> Path:
        """Secret fingerprints and exported sizes for the running tgtd."""
        return self.run_dir / "records.json"

    @property
    def portals_path(self) -> Path:
        """The portals of the last applied state, used to start tgtd on the right addresses."""
        return self.state_dir / "portals.json"

    @property
    def lock_file(self) -> Path:
        """One start/stop/apply at a time across panel processes (web, worker, start-up)."""
        return self.state_dir / "engine.lock"

    def _ensure_run_dir(self) -> None:
        """Create the run directory owner-only; refuse a foreign or shared one."""
        self.run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(self.run_dir)
        if os.path.islink(self.run_dir) or not os.path.isdir(self.run_dir):
            raise EngineStartFailed(f"{ENGINE}: {self.run_dir} is not a directory")
        if info.st_uid != os.geteuid() or info.st_mode & 0o077:
            raise EngineStartFailed(f"{ENGINE}: {self.run_dir} must be owned by us, mode 0700")

    # -- lifecycle -------------------------------------------------------------------------

    def is_running(self) -> bool:
        """Whether our tgtd answers on its control socket."""
        return self.daemon.is_running()

    def start(self, portals: Sequence[PortalSpec] | None = None) -> None:
        """Start tgtd (no-op if it answers) on the given, configured or last applied portals.

        With none known it listens on a free loopback port only; `apply` then moves it to
        the desired portals.
        """
        with file_lock(self.lock_file):
            if self.daemon.is_running():
                return
            self._ensure_run_dir()
            chosen = tuple(portals or self.portals or self._remembered_portals())
            if not chosen:
                chosen = (PortalSpec("127.0.0.1", free_loopback_port()),)
            self.daemon.start(chosen)
            # A fresh tgtd knows nothing, so neither may the record.
            rec.save(self.records_path, rec.Records())

    def stop(self) -> None:
        """Delete all targets, stop tgtd and make sure the process is gone."""
        with file_lock(self.lock_file):
            self.daemon.stop()
            self.records_path.unlink(missing_ok=True)

    def log_tail(self) -> str:
        """The last lines of tgtd's log (tgtadm's own errors are generic)."""
        return log_tail(self.daemon.log_path)

    # -- reading ---------------------------------------------------------------------------

    def read_state(self) -> RunningState:
        """Targets, accounts and portals as tgtd shows them now."""
        show = self.tgtadm.run
        return RunningState(
            targets=tuple(parse_targets(show("--mode", "target", "--op", "show"))),
            accounts=tuple(parse_accounts(show("--mode", "account", "--op", "show"))),
            portals=tuple(parse_portals(show("--mode", "portal", "--op", "show"))),
        )

    def sessions(self) -> list[Session]:
        """Connected initiators, one entry per connection, from the I_T nexus information."""
        return sessions(parse_targets(self.tgtadm.run("--mode", "target", "--op", "show")))

    # -- changing --------------------------------------------------------------------------

    def validate(self, desired: DesiredState) -> None:
        """Raise UnsupportedByEngine/InvalidSpec for what tgt cannot apply faithfully."""
        validate(desired)

    def plan(self, desired: DesiredState) -> list[Step]:
        """The steps `apply` would run now (for inspection and tests)."""
        validate(desired)
        sizes = {lun.path: backing_size(lun.path) for t in desired.targets for lun in t.luns}
        return plan(desired, self.read_state(), rec.load(self.records_path), sizes)

    def apply(self, desired: DesiredState) -> ChangeReport:
        """Reconcile tgtd with `desired`: add missing, change differing, remove stale."""
        with file_lock(self.lock_file):
            validate(desired)
            sizes = {lun.path: backing_size(lun.path) for t in desired.targets for lun in t.luns}
            records = rec.load(self.records_path)
            steps = plan(desired, self.read_state(), records, sizes)
            changes = self._run_steps(steps, records)
            self._prune(records, desired)
            rec.save(self.records_path, records)
            self._remember_portals(desired.portals)
        return ChangeReport(engine=ENGINE, changes=changes)

    def refresh_lun_size(self, iqn: str, lun: int) -> ChangeReport:
        """Re-add one LUN with its current settings so initiators see its backing's new size."""
        with file_lock(self.lock_file):
            target = self.read_state().target(iqn)
            lu = target.lun(lun) if target is not None and lun >= FIRST_LUN else None
            if target is None or lu is None:
                raise InvalidSpec(f"{ENGINE}: {iqn} has no LUN {lun}")
            size = backing_size(lu.path)
            params = [THIN, f"readonly={int(lu.readonly)}", f"scsi_sn={lu.serial}"]
            change = Change("change", "lun", str(lun), iqn, f"size now {size} bytes")
            steps = [
                Step(delete_lun_args(target.tid, lun)),
                Step(
                    new_lun_args(target.tid, lun, lu.path, lu.block_size),
                    record_size=(rec.lun_key(iqn, lun, lu.path), size),
                ),
                Step(param_args(target.tid, lun, params), change=change),
            ]
            changes = self._run_steps(steps, rec.load(self.records_path))
        return ChangeReport(engine=ENGINE, changes=changes)

    def _run_steps(self, steps: Sequence[Step], records: rec.Records) -> tuple[Change, ...]:
        """Run the steps in order and report their changes; save the records after.

        The save runs even when a step failed: what the steps before it created (accounts,
        LUN sizes) is in tgtd now, and the records must say so for the next plan.
        """
        changes: list[Change] = []
        try:
            for step in steps:
                if run_step(self.tgtadm, step, records) and step.change is not None:
                    changes.append(step.change)
        finally:
            rec.save(self.records_path, records)
        return tuple(changes)

    @staticmethod
    def _prune(records: rec.Records, desired: DesiredState) -> None:
        """Forget accounts and LUNs the desired state no longer has."""
        keys = {rec.lun_key(t.iqn, lun.lun, lun.path) for t in desired.targets for lun in t.luns}
        records.sizes = {k: v for k, v in records.sizes.items() if k in keys}
        users = {u for t in desired.targets if t.chap for u in (t.chap.user, t.chap.peer_user) if u}
        chap = desired.discovery_chap
        users |= {u for u in (chap.user, chap.peer_user) if u} if chap else set()
        records.accounts = {k: v for k, v in records.accounts.items() if k in users}

    # -- portals memory --------------------------------------------------------------------

    def _remembered_portals(self) -> tuple[PortalSpec, ...]:
        """The portals of the last applied state, if any were saved."""
        try:
            pairs = json.loads(self.portals_path.read_text())
            return tuple(PortalSpec(str(ip), int(port)) for ip, port in pairs)
        except (OSError, ValueError, TypeError, InvalidSpec):
            return ()

    def _remember_portals(self, portals: Sequence[PortalSpec]) -> None:
        """Save the applied portals (atomically, only when they changed; nothing secret)."""
        text = json.dumps([[p.ip, p.port] for p in portals])
        write_if_changed(self.portals_path, text, mode=0o644)

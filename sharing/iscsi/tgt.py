"""The tgt engine: a private userspace tgtd reconciled with the desired state through tgtadm.

Decisions (see tgtrules.py for the measurements behind them):
- LUN ids: tgt keeps LUN 0 for its controller, and initiators see it there; the engine
  refuses LUN 0 (UnsupportedByEngine naming tgt) instead of shifting ids, so the LUN an
  initiator sees is the LUN the panel shows. `first_lun` is 1.
- Access: empty initiators and networks -> `ALL`; names only -> name entries; networks
  only -> address entries; both -> refused (tgt would admit name OR address).
- CHAP accounts are global in tgt, hold one secret and cannot be edited: a changed secret
  means delete, re-create and re-bind. tgt never shows secrets, so the engine keeps salted
  fingerprints (and exact exported sizes) in a record that lives and dies with the daemon.
- Target alias: tgt has no TargetAlias setting; aliases are ignored (informational only).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import socket
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from sharing.iscsi import tgtrecord
from sharing.iscsi.base import Change, ChangeReport, Session
from sharing.iscsi.desired import DesiredState, PortalSpec
from sharing.iscsi.errors import BackingStoreMissing, EngineStartFailed, InvalidSpec
from sharing.iscsi.tgtadm import ENGINE, Tgtadm, find_binary, log_tail
from sharing.iscsi.tgtd import MAX_SOCKET_PATH, TgtDaemon
from sharing.iscsi.tgtparse import parse_accounts, parse_portals, parse_targets
from sharing.iscsi.tgtplan import BSTYPE, RunningState, Step, plan
from sharing.iscsi.tgtrules import FIRST_LUN, validate


def backing_size(path: str) -> int:
    """The size in bytes of a backing file or block device (what tgt will export)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise BackingStoreMissing(f"backing store {path}: {exc.strerror}") from exc
    try:
        return os.lseek(fd, 0, os.SEEK_END)
    finally:
        os.close(fd)


def _free_loopback_port() -> int:
    """A currently free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One start/stop/apply at a time across panel processes (web, worker, start-up)."""
        self.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        with (self.state_dir / "engine.lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

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
        with self._locked():
            if self.daemon.is_running():
                return
            self._ensure_run_dir()
            chosen = tuple(portals or self.portals or self._remembered_portals())
            if not chosen:
                chosen = (PortalSpec("127.0.0.1", _free_loopback_port()),)
            self.daemon.start(chosen)
            # A fresh tgtd knows nothing, so neither may the record.
            tgtrecord.save(self.records_path, tgtrecord.Records())

    def stop(self) -> None:
        """Delete all targets, stop tgtd and make sure the process is gone."""
        with self._locked():
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
        sessions: list[Session] = []
        for target in parse_targets(self.tgtadm.run("--mode", "target", "--op", "show")):
            for nexus in target.nexuses:
                conns = [(c.address, c.cid) for c in nexus.connections] or [("", 0)]
                sessions.extend(
                    Session(
                        target=target.name,
                        initiator=nexus.initiator,
                        address=address,
                        session_id=nexus.nexus_id,
                        connection_id=cid,
                        alias=nexus.alias,
                    )
                    for address, cid in conns
                )
        return sessions

    # -- changing --------------------------------------------------------------------------

    def validate(self, desired: DesiredState) -> None:
        """Raise UnsupportedByEngine/InvalidSpec for what tgt cannot apply faithfully."""
        validate(desired)

    def plan(self, desired: DesiredState) -> list[Step]:
        """The steps `apply` would run now (for inspection and tests)."""
        validate(desired)
        sizes = {lun.path: backing_size(lun.path) for t in desired.targets for lun in t.luns}
        records = tgtrecord.load(self.records_path)
        return plan(desired, self.read_state(), records, sizes)

    def apply(self, desired: DesiredState) -> ChangeReport:
        """Reconcile tgtd with `desired`: add missing, change differing, remove stale."""
        with self._locked():
            validate(desired)
            sizes = {lun.path: backing_size(lun.path) for t in desired.targets for lun in t.luns}
            records = tgtrecord.load(self.records_path)
            steps = plan(desired, self.read_state(), records, sizes)
            try:
                changes = self._run(steps, records)
            finally:
                tgtrecord.save(self.records_path, records)
            self._prune(records, desired)
            tgtrecord.save(self.records_path, records)
            self._remember_portals(desired.portals)
        return ChangeReport(engine=ENGINE, changes=tuple(changes))

    def _run(self, steps: Sequence[Step], records: tgtrecord.Records) -> list[Change]:
        """Run the steps in order, noting what they changed and what tgt now holds."""
        changes: list[Change] = []
        for step in steps:
            if step.tolerate is None:
                self.tgtadm.run(*step.args)
            elif not self.tgtadm.attempt(*step.args, tolerate=step.tolerate):
                continue
            if step.record_account is not None:
                user, fingerprint = step.record_account
                records.accounts[user] = fingerprint
            if step.record_size is not None:
                key, size = step.record_size
                records.sizes[key] = size
            if step.change is not None:
                changes.append(step.change)
        return changes

    @staticmethod
    def _prune(records: tgtrecord.Records, desired: DesiredState) -> None:
        """Forget accounts and LUNs the desired state no longer has."""
        keys = {
            tgtrecord.lun_key(t.iqn, lun.lun, lun.path) for t in desired.targets for lun in t.luns
        }
        records.sizes = {k: v for k, v in records.sizes.items() if k in keys}
        users = {u for t in desired.targets if t.chap for u in (t.chap.user, t.chap.peer_user) if u}
        chap = desired.discovery_chap
        users |= {u for u in (chap.user, chap.peer_user) if u} if chap else set()
        records.accounts = {k: v for k, v in records.accounts.items() if k in users}

    def refresh_lun_size(self, iqn: str, lun: int) -> ChangeReport:
        """Re-add one LUN with its current settings so initiators see its backing's new size."""
        with self._locked():
            target = next((t for t in self.read_state().targets if t.name == iqn), None)
            lu = target.lun(lun) if target is not None and lun >= FIRST_LUN else None
            if target is None or lu is None:
                raise InvalidSpec(f"{ENGINE}: {iqn} has no LUN {lun}")
            size = backing_size(lu.path)
            tid = ("--tid", str(target.tid), "--lun", str(lun))
            self.tgtadm.run("--mode", "logicalunit", "--op", "delete", *tid)
            self.tgtadm.run(
                "--mode", "logicalunit", "--op", "new", *tid, "--backing-store", lu.path,
                "--bstype", BSTYPE, "--blocksize", str(lu.block_size),
            )  # fmt: skip
            params = [f"readonly={int(lu.readonly)}", f"scsi_sn={lu.serial}"]
            self.tgtadm.run("--mode", "logicalunit", "--op", "update", *tid,
                            "--params", ",".join(params))  # fmt: skip
            records = tgtrecord.load(self.records_path)
            records.sizes[tgtrecord.lun_key(iqn, lun, lu.path)] = size
            tgtrecord.save(self.records_path, records)
        change = Change("change", "lun", str(lun), iqn, f"size now {size} bytes")
        return ChangeReport(engine=ENGINE, changes=(change,))

    # -- portals memory --------------------------------------------------------------------

    def _remembered_portals(self) -> tuple[PortalSpec, ...]:
        """The portals of the last applied state, if any were saved."""
        try:
            pairs = json.loads(self.portals_path.read_text())
            return tuple(PortalSpec(str(ip), int(port)) for ip, port in pairs)
        except (OSError, ValueError, TypeError, InvalidSpec):
            return ()

    def _remember_portals(self, portals: Sequence[PortalSpec]) -> None:
        """Save the applied portals (atomically, only when they changed)."""
        text = json.dumps([[p.ip, p.port] for p in portals])
        with contextlib.suppress(OSError):
            if self.portals_path.read_text() == text:
                return
        tmp = self.portals_path.with_suffix(".tmp")
        tmp.write_text(text)
        os.replace(tmp, self.portals_path)

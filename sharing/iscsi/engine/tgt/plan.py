"""Pure reconciliation for tgt: desired state + what tgtd shows -> the tgtadm steps to run.

Order matters for access control: on a target, ACL entries and CHAP requirements that
tighten access go first and those that widen it go last, and a new target gets its CHAP
accounts and LUNs before its ACL opens it. Discovery CHAP bindings are invisible in tgtd's
output, so those steps are idempotent probes whose expected refusal means "already so".
"""

from __future__ import annotations

from collections.abc import Mapping

from sharing.iscsi.engine.base import Action, Change
from sharing.iscsi.engine.desired import DesiredState, LunSpec, TargetSpec, endpoint
from sharing.iscsi.engine.tgt.records import Records, lun_key
from sharing.iscsi.engine.tgt.rules import (
    BSTYPE,
    acl_entries,
    acl_option,
    default_serial,
    desired_accounts,
    validate,
)
from sharing.iscsi.engine.tgt.state import RunningState, TgtLun, TgtTarget, tgt_size_mb
from sharing.iscsi.engine.tgt.steps import THIN, Step, delete_lun_args, new_lun_args, param_args

# tgtd's refusals that mean a discovery binding is already as wanted.
NOT_BOUND = "can't find the account"
ALREADY_BOUND = "this account already exists"
HAS_OUTGOING = "already has an outgoing account"


class Planner:
    """Builds the step list for one apply; all inputs are plain data."""

    def __init__(
        self,
        desired: DesiredState,
        running: RunningState,
        records: Records,
        sizes: Mapping[str, int],
    ) -> None:
        validate(desired)
        self.desired = desired
        self.running = running
        self.records = records
        self.sizes = sizes
        self.accounts = desired_accounts(desired)
        self.recreated: set[str] = set()
        self.steps: list[Step] = []

    def plan(self) -> list[Step]:
        """Every step, in a safe order."""
        self._portals()
        self._accounts()
        self._stale_targets()
        tids = self._assign_tids()
        for spec in self.desired.targets:
            self._target(spec, tids[spec.iqn], self.running.target(spec.iqn))
        self._stale_accounts()
        self._discovery()
        return self.steps

    def _add(
        self,
        *args: str,
        change: Change | None = None,
        tolerate: str | None = None,
        record_account: tuple[str, str] | None = None,
        record_size: tuple[str, int] | None = None,
    ) -> None:
        """Append one step."""
        self.steps.append(Step(tuple(args), change, tolerate, record_account, record_size))

    def _portals(self) -> None:
        """Listen on new portals first, then stop listening on stale ones."""
        have = set(self.running.portals)
        want = {(p.ip, p.port): p for p in self.desired.portals}
        for key, portal in want.items():
            if key not in have:
                self._add(
                    "--mode", "portal", "--op", "new", "--param", f"portal={portal.endpoint}",
                    change=Change("add", "portal", portal.endpoint),
                )  # fmt: skip
        for ip, port in sorted(have - set(want)):
            where = endpoint(ip, port)
            self._add(
                "--mode", "portal", "--op", "delete", "--param", f"portal={where}",
                change=Change("remove", "portal", where),
            )  # fmt: skip

    def _accounts(self) -> None:
        """Create missing accounts; re-create those whose secret may differ (tgt cannot edit)."""
        existing = set(self.running.accounts)
        for user, secret in sorted(self.accounts.items()):
            fingerprint = self.records.fingerprint(user, secret)
            if user in existing and self.records.knows_secret(user, secret):
                continue
            if user in existing:
                # Deleting also unbinds it everywhere; the target steps bind it again.
                self.recreated.add(user)
                self._add("--mode", "account", "--op", "delete", "--user", user)
            action: Action = "change" if user in existing else "add"
            self._add(
                "--mode", "account", "--op", "new", "--user", user, "--password", secret,
                change=Change(action, "account", user, detail="secret set"),
                record_account=(user, fingerprint),
            )  # fmt: skip

    def _stale_targets(self) -> None:
        """Delete targets the desired state no longer has (connected initiators are dropped)."""
        wanted = {spec.iqn for spec in self.desired.targets}
        for target in self.running.targets:
            if target.name not in wanted:
                self._add(
                    "--mode", "target", "--op", "delete", "--force", "--tid", str(target.tid),
                    change=Change("remove", "target", target.name),
                )  # fmt: skip

    def _assign_tids(self) -> dict[str, int]:
        """Keep running targets' tids; give new targets the lowest free ones."""
        tids = {t.name: t.tid for t in self.running.targets if self.desired.target(t.name)}
        used = set(tids.values())
        next_tid = 1
        for spec in self.desired.targets:
            if spec.iqn in tids:
                continue
            while next_tid in used:
                next_tid += 1
            tids[spec.iqn] = next_tid
            used.add(next_tid)
        return tids

    def _target(self, spec: TargetSpec, tid: int, running: TgtTarget | None) -> None:
        """Create or correct one target: tighten access, LUNs, then widen access."""
        if running is None:
            self._add(
                "--mode", "target", "--op", "new", "--tid", str(tid), "--targetname", spec.iqn,
                change=Change("add", "target", spec.iqn),
            )  # fmt: skip
            running = TgtTarget(tid=tid, name=spec.iqn)
        want_acl = acl_entries(spec)
        for entry in running.acl:
            if entry not in want_acl:
                self._acl("unbind", tid, spec.iqn, entry)
        self._bindings(spec, tid, running)
        self._luns(spec, tid, running)
        for entry in want_acl:
            if entry not in running.acl:
                self._acl("bind", tid, spec.iqn, entry)

    def _acl(self, op: str, tid: int, iqn: str, entry: str) -> None:
        """Bind or unbind one ACL entry (by name or by address)."""
        action: Action = "add" if op == "bind" else "remove"
        self._add(
            "--mode", "target", "--op", op, "--tid", str(tid), acl_option(entry), entry,
            change=Change(action, "acl", entry, target=iqn),
        )  # fmt: skip

    def _bindings(self, spec: TargetSpec, tid: int, running: TgtTarget) -> None:
        """Bind wanted CHAP accounts before unbinding stale ones (never a moment without CHAP)."""
        chap = spec.chap if spec.auth != "none" else None
        want_in = {chap.user} if chap is not None else set()
        want_out = chap.peer_user if chap is not None and spec.auth == "mutual" else None
        have_in = {u for u in running.incoming if u not in self.recreated}
        have_out = running.outgoing if running.outgoing not in self.recreated else None
        for user in sorted(want_in - have_in):
            self._binding("bind", tid, spec.iqn, user, outgoing=False)
        if have_out is not None and have_out != want_out:
            self._binding("unbind", tid, spec.iqn, have_out, outgoing=True)
        if want_out is not None and want_out != have_out:
            self._binding("bind", tid, spec.iqn, want_out, outgoing=True)
        for user in sorted(have_in - want_in):
            self._binding("unbind", tid, spec.iqn, user, outgoing=False)

    def _binding(self, op: str, tid: int, iqn: str, user: str, *, outgoing: bool) -> None:
        """Bind or unbind one account on one target, incoming or outgoing (mutual CHAP)."""
        action: Action = "add" if op == "bind" else "remove"
        flag = ("--outgoing",) if outgoing else ()
        direction = "outgoing" if outgoing else "incoming"
        change = Change(action, "binding", user, target=iqn, detail=direction)
        self._add(
            "--mode", "account", "--op", op, "--tid", str(tid), "--user", user, *flag,
            change=change,
        )  # fmt: skip

    def _luns(self, spec: TargetSpec, tid: int, running: TgtTarget) -> None:
        """Remove stale LUNs, re-add changed ones, add missing ones, fix parameters."""
        wanted = {lun.lun for lun in spec.luns}
        for lu in running.luns:
            if lu.lun != 0 and lu.lun not in wanted:
                self._delete_lun(tid, lu.lun, Change("remove", "lun", str(lu.lun), spec.iqn))
        for lun in spec.luns:
            self._lun(spec.iqn, tid, lun, running.lun(lun.lun))

    def _delete_lun(self, tid: int, lun: int, change: Change | None) -> None:
        """One LUN deletion step."""
        self._add(*delete_lun_args(tid, lun), change=change)

    def _lun(self, iqn: str, tid: int, spec: LunSpec, lu: TgtLun | None) -> None:
        """Add, re-add or update one LUN."""
        size = self.sizes[spec.path]
        key = lun_key(iqn, spec.lun, spec.path)
        reasons = self._readd_reasons(iqn, tid, spec, lu, size) if lu is not None else []
        if lu is not None and not reasons:
            self._lun_params(iqn, tid, spec, lu)
            return
        if lu is not None:
            self._delete_lun(tid, spec.lun, None)
        action: Action = "change" if lu is not None else "add"
        detail = ", ".join(reasons) or f"{spec.path}, {spec.block_size}-byte blocks"
        self._add(*new_lun_args(tid, spec.lun, spec.path, spec.block_size),
                  change=Change(action, "lun", str(spec.lun), iqn, detail),
                  record_size=(key, size))  # fmt: skip
        self._add(*param_args(tid, spec.lun, _wanted_params(spec)))

    def _readd_reasons(self, iqn: str, tid: int, spec: LunSpec, lu: TgtLun, size: int) -> list[str]:
        """Why a running LUN must be deleted and added again (tgt cannot change these live)."""
        reasons = []
        if lu.path != spec.path:
            reasons.append(f"backing {lu.path} -> {spec.path}")
        if lu.block_size != spec.block_size:
            reasons.append(f"block size {lu.block_size} -> {spec.block_size}")
        if lu.bstype != BSTYPE:
            reasons.append(f"backing type {lu.bstype} -> {BSTYPE}")
        recorded = self.records.sizes.get(lun_key(iqn, spec.lun, spec.path))
        if tgt_size_mb(size) != lu.size_mb or (recorded is not None and recorded != size):
            reasons.append(f"size now {size} bytes")
        if spec.serial is None and lu.serial != default_serial(tid, spec.lun):
            reasons.append("serial reset")
        return reasons

    def _lun_params(self, iqn: str, tid: int, spec: LunSpec, lu: TgtLun) -> None:
        """Update thin provisioning, read-only flag and serial in place when they differ."""
        # A LUN tgtd still holds from before the engine made LUNs thin: no re-add needed.
        params = [] if lu.thin else [THIN]
        if lu.readonly != spec.readonly:
            params.append(f"readonly={int(spec.readonly)}")
        if spec.serial is not None and lu.serial != spec.serial:
            params.append(f"scsi_sn={spec.serial}")
        if params:
            change = Change("change", "lun", str(spec.lun), iqn, ", ".join(params))
            self._add(*param_args(tid, spec.lun, params), change=change)

    def _stale_accounts(self) -> None:
        """Delete accounts nothing uses any more (deletion unbinds them everywhere)."""
        for user in self.running.accounts:
            if user not in self.accounts:
                self._add("--mode", "account", "--op", "delete", "--user", user,
                          change=Change("remove", "account", user))  # fmt: skip

    def _discovery(self) -> None:
        """Probe-and-fix discovery CHAP: unbind everyone else, then bind the wanted users."""
        chap = self.desired.discovery_chap
        want_in = chap.user if chap is not None else None
        want_out = chap.peer_user if chap is not None else None
        base = ("--mode", "account")
        for user in sorted(self.accounts):
            if user != want_in:
                change = Change("remove", "discovery", user, detail="incoming")
                self._add(
                    *base, "--op", "unbind", "--user", user, change=change, tolerate=NOT_BOUND
                )
            if user != want_out:
                change = Change("remove", "discovery", user, detail="outgoing")
                self._add(*base, "--op", "unbind", "--user", user, "--outgoing",
                          change=change, tolerate=NOT_BOUND)  # fmt: skip
        if want_in is not None:
            change = Change("add", "discovery", want_in, detail="incoming")
            self._add(*base, "--op", "bind", "--user", want_in, change=change,
                      tolerate=ALREADY_BOUND)  # fmt: skip
        if want_out is not None:
            change = Change("add", "discovery", want_out, detail="outgoing")
            self._add(*base, "--op", "bind", "--user", want_out, "--outgoing", change=change,
                      tolerate=HAS_OUTGOING)  # fmt: skip


def _wanted_params(spec: LunSpec) -> list[str]:
    """Parameters a freshly added LUN needs beyond tgt's defaults (thin is always one)."""
    params = [THIN]
    if spec.readonly:
        params.append("readonly=1")
    if spec.serial is not None:
        params.append(f"scsi_sn={spec.serial}")
    return params


def plan(
    desired: DesiredState,
    running: RunningState,
    records: Records,
    sizes: Mapping[str, int],
) -> list[Step]:
    """The tgtadm steps that turn `running` into `desired`.

    When they already match, only the discovery probes remain, and each of them is refused
    by tgtd with the tolerated message, so nothing is reported.
    """
    return Planner(desired, running, records, sizes).plan()

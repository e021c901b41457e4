"""The operation a tgt plan is made of (one tgtadm call), and how one step runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sharing.iscsi.engine.base import Change
from sharing.iscsi.engine.tgt.admin import Tgtadm
from sharing.iscsi.engine.tgt.records import Records
from sharing.iscsi.engine.tgt.rules import BSTYPE

# Every LUN is thin: it advertises logical block provisioning (LBPME in READ CAPACITY 16,
# UNMAP limits in the Block Limits VPD page, the LBP VPD page) and tgt's rdwr store honours
# UNMAP and WRITE SAME with UNMAP by punching holes in the backing file, so space an
# initiator frees goes back to the pool. tgt 1.0.85 takes it only from `--op update`
# (`--op new` ignores it) and shows it back as "Thin-provisioning: Yes".
THIN = "thin_provisioning=1"


@dataclass(frozen=True)
class Step:
    """One tgtadm call; `change` is reported if it ran (not if it hit `tolerate`)."""

    args: tuple[str, ...]
    change: Change | None = None
    tolerate: str | None = None
    record_account: tuple[str, str] | None = None  # (user, fingerprint) once created
    record_size: tuple[str, int] | None = None  # (lun key, bytes) once exported


def new_lun_args(tid: int, lun: int, path: str, block_size: int) -> tuple[str, ...]:
    """Arguments creating a LUN (thin provisioning, read-only and serial follow by update)."""
    return (
        "--mode", "logicalunit", "--op", "new", "--tid", str(tid), "--lun", str(lun),
        "--backing-store", path, "--bstype", BSTYPE, "--blocksize", str(block_size),
    )  # fmt: skip


def delete_lun_args(tid: int, lun: int) -> tuple[str, ...]:
    """Arguments removing a LUN."""
    return ("--mode", "logicalunit", "--op", "delete", "--tid", str(tid), "--lun", str(lun))


def param_args(tid: int, lun: int, params: Sequence[str]) -> tuple[str, ...]:
    """Arguments updating LUN parameters (`thin_provisioning=1`, `readonly=1`, `scsi_sn=...`)."""
    return (
        "--mode", "logicalunit", "--op", "update", "--tid", str(tid), "--lun", str(lun),
        "--params", ",".join(params),
    )  # fmt: skip


def run_step(tgtadm: Tgtadm, step: Step, records: Records) -> bool:
    """Run one step and note in `records` what tgt now holds; False if it hit `tolerate`."""
    if step.tolerate is None:
        tgtadm.run(*step.args)
    elif not tgtadm.attempt(*step.args, tolerate=step.tolerate):
        return False
    if step.record_account is not None:
        user, fingerprint = step.record_account
        records.accounts[user] = fingerprint
    if step.record_size is not None:
        key, size = step.record_size
        records.sizes[key] = size
    return True

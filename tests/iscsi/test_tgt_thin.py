"""Thin provisioning on tgt: LUNs advertise UNMAP, and space an initiator frees leaves the file."""

from __future__ import annotations

import os
import re

import pytest

from sharing.iscsi.engine.desired import DesiredState, LunSpec, TargetSpec
from tests.iscsi.iscsi_clients import qemu_io, read_capacity, url, vpd_page

pytestmark = pytest.mark.iscsi

IQN = "iqn.2024-01.org.nasui.test:thin"
MIB = 1 << 20
LBP_VPD = 0xB2  # Logical Block Provisioning
BLOCK_LIMITS_VPD = 0xB0


def one_lun(portal, path) -> DesiredState:
    """The test target with `path` as its 4096-byte LUN 1, on `portal`."""
    spec = TargetSpec(IQN, luns=(LunSpec(1, str(path), block_size=4096),))
    return DesiredState(portals=(portal,), targets=(spec,))


def apply_one_lun(tgt, portal, path) -> str:
    """Export `path` as LUN 1 of the test target and return its libiscsi URL."""
    tgt.apply(one_lun(portal, path))
    return url("127.0.0.1", portal.port, IQN, 1)


def lbpme(lun_url: str) -> str:
    """The LBPME bit READ CAPACITY(16) reports ('' if it printed none)."""
    result, _size, _block = read_capacity(lun_url)
    assert result.ok, result.output
    found = re.search(r"^LBPME:(\d)", result.output, flags=re.MULTILINE)
    return found.group(1) if found else ""


def allocated(path) -> int:
    """Bytes the file system has allocated to the backing file."""
    return os.stat(path).st_blocks * 512


def test_a_lun_advertises_logical_block_provisioning(tgt, portal, make_disk):
    lun_url = apply_one_lun(tgt, portal, make_disk("adv.img"))
    assert lbpme(lun_url) == "1"
    result, lbp = vpd_page(lun_url, LBP_VPD)
    assert result.ok, result.output
    assert (lbp.get("lbpu"), lbp.get("lbprz")) == ("1", "1"), result.output
    result, limits = vpd_page(lun_url, BLOCK_LIMITS_VPD)
    assert int(limits.get("maximum unmap lba count", "0")) > 0, result.output
    target = tgt.read_state().target(IQN)
    assert target is not None
    lun = target.lun(1)
    assert lun is not None
    assert lun.thin


def test_space_an_initiator_discards_goes_back_out_of_the_backing_file(tgt, portal, make_disk):
    disk = make_disk("space.img", 64 * MIB)
    apply_one_lun(tgt, portal, disk)
    before = allocated(disk)
    wrote = qemu_io(portal.port, IQN, 1, ["write -P 0xa5 0 8M"])
    assert wrote.ok, wrote.output
    written = allocated(disk)
    assert written >= before + 8 * MIB
    # qemu's iscsi driver sends UNMAP for a discard only to a LUN advertising it.
    discarded = qemu_io(portal.port, IQN, 1, ["discard 0 8M", "read -P 0 0 8M"])
    assert discarded.ok, discarded.output
    assert "Pattern verification failed" not in discarded.output
    assert allocated(disk) == before, (before, written, allocated(disk))


def test_a_running_lun_without_thin_provisioning_is_made_thin_in_place(tgt, portal, make_disk):
    desired = one_lun(portal, make_disk("fix.img"))
    tgt.apply(desired)
    lun_url = url("127.0.0.1", portal.port, IQN, 1)
    # As a LUN added before the engine made LUNs thin would be.
    tgt.tgtadm.run("--mode", "logicalunit", "--op", "update", "--tid", "1", "--lun", "1",
                   "--params", "thin_provisioning=0")  # fmt: skip
    assert lbpme(lun_url) == "0"
    report = tgt.apply(desired)
    assert [(c.action, c.kind, c.detail) for c in report.changes] == [
        ("change", "lun", "thin_provisioning=1")
    ]
    assert lbpme(lun_url) == "1"
    assert not tgt.apply(desired).changed

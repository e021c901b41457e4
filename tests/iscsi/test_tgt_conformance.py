"""libiscsi's conformance suite (iscsi-test-cu) against LUNs the engine exports."""

from __future__ import annotations

import pytest

from sharing.iscsi.desired import DesiredState, LunSpec, TargetSpec
from tests.iscsi.iscsi_clients import SCSI_FAMILIES, parse_test_cu, run_test_cu, url

pytestmark = pytest.mark.iscsi

IQN = "iqn.2024-01.org.nasui.test:conformance"
FAMILIES = [*SCSI_FAMILIES, "iSCSI"]
# Suites these families produce (iscsi-test-cu prints suites without the family prefix).
SUITES = {"Inquiry", "ReadCapacity10", "ReadCapacity16", "Read10", "Write10", "TestUnitReady",
          "iSCSIcmdsn", "iSCSIdatasn", "iSCSIResiduals", "iSCSITMF"}  # fmt: skip
# Tests that fail because of tgt itself, not because of how the engine configures it
# (facts.md: measured with `-t ALL` on a hand-made tgt rdwr LUN, 221 of 230 pass).
ALLOWED_FAILURES = {
    "iSCSIdatasn.iSCSIDataSnInvalid": "tgt accepts Data-Out PDUs with a wrong DataSN "
    "instead of rejecting them (fails the same on a LUN set up by hand)",
}


def test_parser_reads_verdicts_including_skips(fixture_text):
    verdicts = parse_test_cu(fixture_text("iscsi_test_cu_4096.txt"))
    assert len(verdicts) == 40
    assert verdicts["iSCSIdatasn.iSCSIDataSnInvalid"] == "failed"
    assert verdicts["Inquiry.BlockLimits"] == "skipped"
    assert verdicts["Write10.Async"] == "passed"
    assert {name.split(".")[0] for name in verdicts} == SUITES


@pytest.mark.parametrize("block_size", [4096, 512])
def test_conformance_families_pass_except_known_tgt_failures(tgt, portal, make_disk, block_size):
    disk = make_disk(f"cu{block_size}.img", 64 << 20)
    spec = TargetSpec(IQN, luns=(LunSpec(1, str(disk), block_size=block_size),))
    tgt.apply(DesiredState(portals=(portal,), targets=(spec,)))
    result, verdicts = run_test_cu(url("127.0.0.1", portal.port, IQN, 1), FAMILIES)
    assert {name.split(".")[0] for name in verdicts} == SUITES, result.output
    failed = {name for name, verdict in verdicts.items() if verdict == "failed"}
    unexpected = failed - set(ALLOWED_FAILURES)
    assert not unexpected, f"unexpected failures {sorted(unexpected)}:\n{result.output}"
    passed = [name for name, verdict in verdicts.items() if verdict == "passed"]
    assert len(passed) >= 35, result.output
